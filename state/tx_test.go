package state

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTXSaveLoad(t *testing.T) {
	dir := t.TempDir()
	s, err := LoadTX(dir)
	if err != nil || s.ShownResultDigests == nil || len(s.ShownResultDigests) != 0 {
		t.Fatalf("fresh TX = %+v, %v", s, err)
	}
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	if s.Shown(digestA) {
		t.Error("fresh state has shown a digest")
	}
	s.MarkShown(digestA, at)
	s.MarkShown(digestA, at.Add(time.Hour))
	s.Running, s.WatcherPID, s.LastResultCommit = true, 99, commitA
	if !s.Shown(digestA) || !s.ShownResultDigests[digestA].Equal(at) {
		t.Errorf("MarkShown kept %v, want the first time", s.ShownResultDigests[digestA])
	}
	if err := SaveTX(dir, s); err != nil {
		t.Fatal(err)
	}
	out, err := LoadTX(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, out) {
		t.Errorf("round trip:\n%+v\n%+v", s, out)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, TXStateFile))
	for _, k := range []string{`"running"`, `"watcher_pid"`, `"shown_result_digests"`, `"last_result_commit"`} {
		if !strings.Contains(string(raw), k) {
			t.Errorf("file lacks %s:\n%s", k, raw)
		}
	}
}

func TestTXInvalid(t *testing.T) {
	for i, s := range []TX{
		{WatcherPID: -1},
		{LastResultCommit: "main"},
		{ShownResultDigests: map[string]time.Time{"xyz": time.Now()}},
		{ShownResultDigests: map[string]time.Time{digestA: {}}},
	} {
		if err := SaveTX(t.TempDir(), s); err == nil {
			t.Errorf("case %d: invalid TX state saved", i)
		}
		dir := t.TempDir()
		if err := WriteJSON(filepath.Join(dir, TXStateFile), s); err != nil {
			t.Fatal(err)
		}
		var ce *CorruptError
		if _, err := LoadTX(dir); !errors.As(err, &ce) {
			t.Errorf("case %d: LoadTX = %v, want *CorruptError", i, err)
		}
	}
}
