package state

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The list round-trips, refuses what is not an entry, and an Update whose
// fn fails writes nothing.
func TestTXRecordsUpdate(t *testing.T) {
	s := &TXRecordStore{Dir: t.TempDir()}
	if l, err := s.Load(); err != nil || len(l.Records) != 0 {
		t.Fatalf("a missing list: %+v, %v", l, err)
	}
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	if err := s.Update(func(l *TXRecords) error {
		l.Records["T_1-abcdefabcdef.json"] = IssuedRecord{SHA256: digestA, IssuedAt: at}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	if err := s.Update(func(l *TXRecords) error {
		delete(l.Records, "T_1-abcdefabcdef.json")
		return stop
	}); err != stop {
		t.Fatalf("Update with a failing fn: %v", err)
	}
	l, err := s.Load()
	if err != nil || l.Records["T_1-abcdefabcdef.json"].SHA256 != digestA || l.Records["T_1-abcdefabcdef.json"].UsedAt != nil {
		t.Fatalf("after a failed Update: %+v, %v", l, err)
	}
	raw, _ := os.ReadFile(s.Path())
	for _, k := range []string{`"records"`, `"sha256"`, `"issued_at"`, `"used_at": null`, `"used_pid": 0`} {
		if !strings.Contains(string(raw), k) {
			t.Errorf("the file lacks %s:\n%s", k, raw)
		}
	}
	for i, bad := range []IssuedRecord{
		{SHA256: "xyz", IssuedAt: at},
		{SHA256: digestA},
		{SHA256: digestA, IssuedAt: at, UsedPID: 7},
		{SHA256: digestA, IssuedAt: at, UsedAt: &time.Time{}},
	} {
		if err := s.Update(func(l *TXRecords) error { l.Records["T_2-abcdefabcdef.json"] = bad; return nil }); err == nil {
			t.Errorf("case %d: an invalid entry was written", i)
		}
	}
	for _, name := range []string{"../x.json", "x", ""} {
		if err := s.Update(func(l *TXRecords) error { l.Records[name] = IssuedRecord{SHA256: digestA, IssuedAt: at}; return nil }); err == nil {
			t.Errorf("an entry named %q was written", name)
		}
	}
	if err := os.WriteFile(s.Path(), []byte(`{"records": {"x.json": {"sha256": "nope", "issued_at": "2026-12-02T12:00:00Z", "used_at": null, "used_pid": 0}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var ce *CorruptError
	if _, err := s.Load(); !errors.As(err, &ce) {
		t.Fatalf("a corrupt list: %v, want *CorruptError", err)
	}
}

// Concurrent Updates lose nothing: each read-modify-write is under the lock.
func TestTXRecordsConcurrentUpdates(t *testing.T) {
	s := &TXRecordStore{Dir: t.TempDir()}
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "T_" + string(rune('A'+i)) + "-abcdefabcdef.json"
			if err := s.Update(func(l *TXRecords) error {
				l.Records[name] = IssuedRecord{SHA256: digestA, IssuedAt: time.Now()}
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if l, err := s.Load(); err != nil || len(l.Records) != n {
		t.Fatalf("%d entries after %d concurrent Updates (%v)", len(l.Records), n, err)
	}
	if left, _ := filepath.Glob(filepath.Join(s.Dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// The TX state's looks and tasks over unread round-trip and are validated.
func TestTXLooksAndOverUnread(t *testing.T) {
	dir := t.TempDir()
	s, err := LoadTX(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.SetNodeLook("rx-a", commitA)
	s.MarkOverUnread("RX_OTA_0001", commitA)
	s.MarkOverUnread("RX_OTA_0001", strings.Repeat("b", 40))
	if err := SaveTX(dir, s); err != nil {
		t.Fatal(err)
	}
	out, err := LoadTX(dir)
	if err != nil || out.NodeLook("rx-a") != commitA {
		t.Fatalf("node look: %+v, %v", out, err)
	}
	if at, ok := out.OverUnreadAt("RX_OTA_0001"); !ok || at != commitA {
		t.Fatalf("over unread at %q %v, want the first %s", at, ok, commitA)
	}
	for i, bad := range []TX{
		{NodeLooks: map[string]string{"rx-a": "main"}},
		{NodeLooks: map[string]string{"": commitA}},
		{TasksOverUnread: map[string]string{"lower": commitA}},
		{TasksOverUnread: map[string]string{"RX_OTA_0001": "HEAD"}},
	} {
		if err := SaveTX(t.TempDir(), bad); err == nil {
			t.Errorf("case %d: an invalid TX state was saved", i)
		}
	}
}
