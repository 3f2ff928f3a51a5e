package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRXStoreUpdate(t *testing.T) {
	s := &RXStore{Dir: t.TempDir()}
	got, err := s.Update(func(st *RX) error { st.MarkCompleted("TASK_ONE"); return nil })
	if err != nil || !got.Completed("TASK_ONE") {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	if st, err := s.Load(); err != nil || !st.Completed("TASK_ONE") {
		t.Fatalf("Load after Update = %+v, %v", st, err)
	}
	// An error from fn writes nothing, though fn changed its copy.
	boom := errors.New("boom")
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(func(st *RX) error { st.MarkCompleted("TASK_TWO"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("Update = %v; want fn's error", err)
	}
	if after, err := os.ReadFile(s.Path()); err != nil || string(after) != string(before) {
		t.Errorf("the state changed after fn failed: %v\n%s", err, after)
	}
}

// CleanTemps removes the state file's temp files, and only under the
// state lock.
func TestRXStoreCleanTempsUnderTheLock(t *testing.T) {
	s := &RXStore{Dir: t.TempDir()}
	left := filepath.Join(s.Dir, "."+RXStateFile+".tmp-1")
	if err := os.WriteFile(left, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	removed, err := s.CleanTemps()
	if err != nil || len(removed) != 1 || removed[0] != left {
		t.Fatalf("CleanTemps = %v, %v; want [%s]", removed, err, left)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, rxStateLockFile)); err != nil {
		t.Errorf("CleanTemps did not take the state lock: %v", err)
	}
}
