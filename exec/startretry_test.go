package exec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// failingStarts makes the first n starts of s fail with err before any
// process exists, as the system's refusal would; later ones start for real.
func failingStarts(s *Stack, n int, err error) *int {
	calls := 0
	real := s.startProc
	s.startProc = func(ctx context.Context, path string, c Cmd, timeout time.Duration) (*started, error) {
		calls++
		if calls <= n {
			return nil, &os.PathError{Op: "fork/exec", Path: path, Err: err}
		}
		return real(ctx, path, c, timeout)
	}
	return &calls
}

// startLines counts the audit log's start and end lines, and the end lines'
// errors.
func startLines(t *testing.T, logPath string) (starts, ends int, errs []string) {
	t.Helper()
	entries, err := ReadAuditTail(logPath, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch e.Event {
		case EventStart:
			starts++
		case EventEnd:
			ends++
			if e.Error != "" {
				errs = append(errs, e.Error)
			}
		}
	}
	return starts, ends, errs
}

func TestTransientStartIsTriedAgainOnRecord(t *testing.T) {
	startPause = time.Millisecond
	t.Cleanup(func() { startPause = 100 * time.Millisecond })
	s, logPath := newStack(t, RoleProbe, nil)
	calls := failingStarts(s, 2, transientErrno)
	marker := filepath.Join(t.TempDir(), "ran")
	if _, err := s.Run(t.Context(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "touch=" + marker}}); err != nil {
		t.Fatalf("Run after two refused starts: %v", err)
	}
	if *calls != 3 {
		t.Errorf("%d starts; want 3", *calls)
	}
	if b, err := os.ReadFile(marker); err != nil || string(b) != "ran" {
		t.Errorf("the program did not run once it could start: %q, %v", b, err)
	}
	// Every attempt is a start line and an end line; the refused ones say why.
	starts, ends, errs := startLines(t, logPath)
	if starts != 3 || ends != 3 || len(errs) != 2 || !strings.Contains(errs[0], transientErrno.Error()) {
		t.Errorf("audit: %d start, %d end lines, errors %q; want 3, 3 and two naming %q", starts, ends, errs, transientErrno)
	}
}

func TestTransientStartGivesUpAfterThreeAttempts(t *testing.T) {
	startPause = time.Millisecond
	t.Cleanup(func() { startPause = 100 * time.Millisecond })
	s, logPath := newStack(t, RoleProbe, nil)
	calls := failingStarts(s, 99, transientErrno)
	_, err := s.Run(t.Context(), Cmd{Tool: HackRFInfo, Args: []string{"-d", "exit=0"}})
	if !errors.Is(err, transientErrno) {
		t.Fatalf("Run: %v; want the last attempt's %v", err, transientErrno)
	}
	if *calls != startAttempts {
		t.Errorf("%d starts; want %d", *calls, startAttempts)
	}
	if starts, ends, errs := startLines(t, logPath); starts != startAttempts || ends != startAttempts || len(errs) != startAttempts {
		t.Errorf("audit: %d start, %d end lines, %d errors; want %d of each", starts, ends, len(errs), startAttempts)
	}
}

func TestStartNotTriedAgain(t *testing.T) {
	startPause = time.Hour // a pause would outlast the test
	t.Cleanup(func() { startPause = 100 * time.Millisecond })
	for name, tc := range map[string]struct {
		err    error
		cancel bool
	}{
		"another error":          {err: errors.New("exec format error")},
		"transient, ctx is done": {err: transientErrno, cancel: true},
	} {
		t.Run(name, func(t *testing.T) {
			s, logPath := newStack(t, RoleProbe, nil)
			calls := failingStarts(s, 99, tc.err)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tc.cancel {
				real := s.startProc
				s.startProc = func(ctx context.Context, path string, c Cmd, timeout time.Duration) (*started, error) {
					cancel() // the caller gives up while the start is refused
					return real(ctx, path, c, timeout)
				}
			}
			if _, err := s.Run(ctx, Cmd{Tool: HackRFInfo, Args: []string{"-d", "exit=0"}}); !errors.Is(err, tc.err) {
				t.Fatalf("Run: %v; want %v", err, tc.err)
			}
			if *calls != 1 {
				t.Errorf("%d starts; want 1", *calls)
			}
			if starts, ends, _ := startLines(t, logPath); starts != 1 || ends != 1 {
				t.Errorf("audit: %d start, %d end lines; want 1 and 1", starts, ends)
			}
		})
	}
}
