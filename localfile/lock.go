package localfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// LockedError says another process (or Acquire) holds the lock. PID and
// Holder ("rx approve") are what the holder wrote, for messages only.
type LockedError struct {
	Path   string
	PID    int
	Holder string
}

func (e *LockedError) who() string {
	switch {
	case e.Holder != "" && e.PID > 0:
		return fmt.Sprintf("%s (process %d)", e.Holder, e.PID)
	case e.Holder != "":
		return e.Holder
	case e.PID > 0:
		return fmt.Sprintf("process %d", e.PID)
	}
	return "another process"
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is held by %s: only one may run at a time", e.Path, e.who())
}

// Lock is a held exclusive flock(2) on a lock file. The kernel drops it
// when the holder exits in any way (SIGKILL included), so it never goes
// stale; the PID written into the file is only a diagnostic.
type Lock struct {
	path string
	fl   *flock.Flock
}

// pidWait is how long Acquire keeps trying while the holder has not yet
// written its PID: one just starting, or a Probe's instant.
var pidWait = 200 * time.Millisecond // a test widens it

const pidRetry = 10 * time.Millisecond

// Acquire takes the exclusive lock on lockPath without blocking, creating
// the file (mode 0600) if needed. A held lock returns *LockedError.
func Acquire(lockPath string) (*Lock, error) { return AcquireAs(lockPath, "") }

// AcquireAs is Acquire recording holder (a short name such as "rx watch",
// validHolder) beside the PID, for the message of a caller refused.
func AcquireAs(lockPath, holder string) (*Lock, error) {
	if !validHolder(holder) {
		return nil, fmt.Errorf("lock %s: holder name %q is not a short plain name", lockPath, holder)
	}
	deadline := time.Now().Add(pidWait)
	for {
		fl := flock.New(lockPath, flock.SetPermissions(0o600))
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if ok {
			l := &Lock{path: lockPath, fl: fl}
			if err := writeHolder(lockPath, os.Getpid(), holder); err != nil {
				l.Release()
				return nil, fmt.Errorf("lock %s: recording pid: %w", lockPath, err)
			}
			return l, nil
		}
		pid, who := readHolder(lockPath)
		if pid > 0 || time.Now().After(deadline) {
			return nil, &LockedError{Path: lockPath, PID: pid, Holder: who}
		}
		time.Sleep(pidRetry)
	}
}

// Release clears the recorded PID and drops the lock, once. The file
// stays: deleting it would let two processes lock two inodes under one name.
func (l *Lock) Release() error {
	if l == nil || !l.fl.Locked() {
		return nil
	}
	clearErr := writePID(l.path, 0)
	if err := l.fl.Unlock(); err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return clearErr
}

// RecoverStale reports whether a running flag is stale: holding this lock
// proves its writer gone (whatever its PID now names), unless it is us.
func (l *Lock) RecoverStale(running bool, pid int) (wasStale bool) {
	return running && pid != os.Getpid()
}

// Probe reports whether some process holds the lock on lockPath and the
// PID it recorded, by trying the lock for an instant (see pidWait).
func Probe(lockPath string) (held bool, pid int, err error) {
	if _, err := os.Stat(lockPath); errors.Is(err, fs.ErrNotExist) {
		return false, 0, nil
	} else if err != nil {
		return false, 0, err
	}
	fl := flock.New(lockPath)
	ok, err := fl.TryLock()
	if err != nil {
		return false, 0, fmt.Errorf("probe lock %s: %w", lockPath, err)
	}
	if ok {
		return false, 0, fl.Unlock()
	}
	return true, readPID(lockPath), nil
}

func writePID(path string, pid int) error { return writeHolder(path, pid, "") }

// writeHolder replaces the recorded "PID[ HOLDER]\n" (pid 0: empty) at
// pidPath, through its own descriptor: the lock is flock's.
func writeHolder(path string, pid int, holder string) error {
	f, err := os.OpenFile(pidPath(path), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if pid > 0 {
		line := strconv.Itoa(pid)
		if holder != "" {
			line += " " + holder
		}
		if _, err := fmt.Fprintln(f, line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func readPID(path string) int {
	pid, _ := readHolder(path)
	return pid
}

// readHolder reads what writeHolder wrote (or an older PID-only line),
// dropping a holder name not plain enough for the operator's terminal.
func readHolder(path string) (pid int, holder string) {
	b, err := os.ReadFile(pidPath(path))
	if err != nil || len(b) > 80 {
		return 0, ""
	}
	num, name, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	pid, err = strconv.Atoi(num)
	if err != nil || pid < 0 {
		return 0, ""
	}
	if !validHolder(name) {
		name = ""
	}
	return pid, name
}

func validHolder(s string) bool {
	if len(s) > 40 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == ' ' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
