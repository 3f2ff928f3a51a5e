package exec

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// syncSpy records, at each sync of the audit log, how many lines the log
// held and whether the child had already run (its marker file existed).
type syncSpy struct {
	log, marker string
	fail        error
	seen        []syncSeen
}

type syncSeen struct {
	lines int
	ran   bool
}

func (s *syncSpy) sync(f *os.File) error {
	data, _ := os.ReadFile(s.log)
	_, err := os.Stat(s.marker)
	s.seen = append(s.seen, syncSeen{lines: bytes.Count(data, []byte("\n")), ran: err == nil})
	if s.fail != nil {
		return s.fail
	}
	return f.Sync()
}

func spiedStack(t *testing.T, fail error) (*Stack, *AuditLog, *syncSpy) {
	t.Helper()
	dir := helperDir(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	spy := &syncSpy{log: path, marker: filepath.Join(t.TempDir(), "ran"), fail: fail}
	log.sync = spy.sync
	s, err := New(Options{Role: RoleProbe, Audit: log, Tools: map[Tool]string{HackRFInfo: filepath.Join(dir, helperExe)}})
	if err != nil {
		t.Fatal(err)
	}
	return s, log, spy
}

// PROTOCOL#audit-log: the start line is on disk before the process starts; the
// end line waits for the next synced line or for Head, which a pushed
// commit's trailer names.
func TestAuditStartLineSyncedBeforeTheProcessEndLineByHead(t *testing.T) {
	s, log, spy := spiedStack(t, nil)
	if _, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "touch=" + spy.marker}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spy.marker); err != nil {
		t.Fatalf("the child did not run: %v", err)
	}
	want := []syncSeen{{lines: 1, ran: false}}
	if len(spy.seen) != 1 || spy.seen[0] != want[0] {
		t.Fatalf("syncs during one subprocess: %+v, want %+v (the start line, before the child ran; the end line not waited for)", spy.seen, want)
	}
	head, err := log.Head()
	if err != nil || head == "" {
		t.Fatalf("Head: %q, %v", head, err)
	}
	if len(spy.seen) != 2 || spy.seen[1].lines != 2 {
		t.Fatalf("syncs after Head: %+v, want a second one with both lines written", spy.seen)
	}
	if _, err := VerifyAuditLog(spy.log); err != nil {
		t.Fatal(err)
	}
}

// A start line that cannot be synced is cut back and nothing runs, for
// every error the sync returns: EINVAL too, which /dev/null's sync
// answers (and which was once taken for "nothing to sync").
func TestAuditStartLineSyncFailureRunsNothing(t *testing.T) {
	for _, cause := range []error{syscall.EIO, syscall.ENOSPC, syscall.EINVAL} {
		s, _, spy := spiedStack(t, cause)
		_, err := s.Run(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "touch=" + spy.marker}})
		var ae *auditError
		if !errors.As(err, &ae) || !errors.Is(err, cause) || ae.Op != "syncing" {
			t.Fatalf("got %v, want an *auditError syncing: %v", err, cause)
		}
		if _, err := os.Stat(spy.marker); !os.IsNotExist(err) {
			t.Fatalf("%v: the process ran although its start line could not be synced", cause)
		}
		if data, _ := os.ReadFile(spy.log); len(data) != 0 {
			t.Fatalf("%v: the unsynced start line was left in the log: %q", cause, data)
		}
	}
}

// Head names a line for a pushed commit only once the log is on disk.
func TestAuditHeadSyncFailureNamesNothing(t *testing.T) {
	_, log, spy := spiedStack(t, nil)
	if _, err := log.Append(Entry{Event: EventStart, Tool: Git}); err != nil {
		t.Fatal(err)
	}
	spy.fail = syscall.EINVAL
	if head, err := log.Head(); err == nil || head != "" {
		t.Fatalf("Head with a failing sync: %q, %v", head, err)
	}
}
