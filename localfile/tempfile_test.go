package localfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// CreateTemp's files are the ones CleanTemps removes for the same path,
// and WriteSynced leaves them written, with their mode, and closed.
func TestCreateTempWriteSyncedCleanTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "record")
	f, err := CreateTemp(path)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(f.Name()) != dir {
		t.Errorf("temp file %s is not beside %s", f.Name(), path)
	}
	if err := WriteSynced(f, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("WriteSynced left the file open (Close = %v)", err)
	}
	got, err := os.ReadFile(f.Name())
	if err != nil || string(got) != "data" {
		t.Fatalf("temp content = %q, %v; want data", got, err)
	}
	other := filepath.Join(dir, "recordx")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	removed, err := CleanTemps(path)
	if err != nil || len(removed) != 1 || removed[0] != f.Name() {
		t.Fatalf("CleanTemps = %v, %v; want [%s]", removed, err, f.Name())
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("CleanTemps removed a file that is not its temp: %v", err)
	}
}

// A write to a closed file is an error, and WriteSynced reports it.
func TestWriteSyncedReportsFailure(t *testing.T) {
	f, err := CreateTemp(filepath.Join(t.TempDir(), "x"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := WriteSynced(f, []byte("data"), 0o600); err == nil {
		t.Fatal("WriteSynced on a closed file = nil; want an error")
	}
}
