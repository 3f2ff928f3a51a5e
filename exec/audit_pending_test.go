package exec

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// PROTOCOL#rx-state, PROTOCOL#audit-log: the calls that decide whether the log may be written
// run before it exists; a pending log holds their lines (writing nothing)
// and Open writes them first, in order, chained with what follows.
func TestPendingAuditLogHoldsLinesUntilOpen(t *testing.T) {
	dir := helperDir(t)
	pending := NewPendingAuditLog()
	s, err := New(Options{Role: RoleProbe, Audit: pending, Tools: map[Tool]string{HackRFInfo: filepath.Join(dir, helperExe)}})
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	if _, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "touch=" + marker}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the child did not run: %v", err)
	}
	if n := len(pending.held); n != 2 {
		t.Fatalf("held %d lines, want the start and end lines", n)
	}
	if _, err := pending.Head(); err == nil {
		t.Error("Head of a pending log: no error; a commit could name a chain that is nowhere")
	}
	path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
	if _, err := os.Lstat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("something was written before Open: %v", err)
	}
	if err := pending.Open(path); err != nil {
		t.Fatal(err)
	}
	if err := pending.Open(path); err == nil {
		t.Error("a second Open: no error")
	}
	if n := len(pending.held); n != 0 {
		t.Errorf("still held after Open: %d", n)
	}
	if err := pending.RecordDecision(Decision{Side: SideRX, Kind: DecisionApprovalRefused, Command: "rx approve", Reason: "no terminal"}); err != nil {
		t.Fatal(err)
	}
	st, err := VerifyAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Lines != 3 {
		t.Fatalf("%d lines, want the two held and the decision after them", st.Lines)
	}
	entries, err := ReadAuditTail(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if entries[0].Event != EventStart || entries[1].Event != EventEnd || entries[0].ID != entries[1].ID || entries[2].Event != EventDecision {
		t.Fatalf("order: %+v", entries)
	}
	if entries[0].Seq != 1 || entries[2].Seq != 3 || entries[0].Rfhandoff != os.Getpid() {
		t.Errorf("chain fields: seq %d..%d pid %d", entries[0].Seq, entries[2].Seq, entries[0].Rfhandoff)
	}
	if entries[0].Time.After(entries[2].Time) {
		t.Errorf("a held line has the time it was written (%v), not the time it happened", entries[0].Time)
	}
	if head, err := pending.Head(); err != nil || head != st.Head {
		t.Errorf("Head after Open = %q, %v; want %q", head, err, st.Head)
	}
}

// A pending log that is never opened leaves nothing anywhere: the refusal
// of a command whose checks failed writes no file.
func TestPendingAuditLogNeverOpenedWritesNothing(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	pending := NewPendingAuditLog()
	if _, err := pending.Append(Entry{Event: EventStart, ID: "1", Tool: Git, Argv: []string{"git", "rev-parse"}}); err != nil {
		t.Fatal(err)
	}
	if des, _ := os.ReadDir(wd); len(des) != 0 {
		t.Errorf("the working directory holds %v", des)
	}
}

// Held lines reach the log together or not at all: a sync that fails
// when Open writes them leaves no line (PROTOCOL#audit-log: a log that cannot be
// synced is no record).
func TestPendingAuditLogOpenSyncFailureLeavesNoLine(t *testing.T) {
	pending := NewPendingAuditLog()
	for _, id := range []string{"1", "2", "3"} {
		if _, err := pending.Append(Entry{Event: EventStart, ID: id, Tool: Git, Argv: []string{"git", "rev-parse"}}); err != nil {
			t.Fatal(err)
		}
	}
	pending.sync = func(*os.File) error { return syscall.EIO }
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var ae *auditError
	if err := pending.Open(path); !errors.As(err, &ae) || ae.Op != "syncing" {
		t.Fatalf("Open = %v; want the sync failure", err)
	}
	if data, err := os.ReadFile(path); err != nil || len(data) != 0 {
		t.Errorf("the log holds %q (%v); want nothing", data, err)
	}
}
