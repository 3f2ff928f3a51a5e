package state

import (
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"rfhandoff/localfile"
)

// Lock file names, one per side, kept in the state directory beside (never
// the same as) the state files they guard: the state file is replaced by
// rename, which would swap the locked inode away.
const (
	RXLockFile = "rx_agent.lock"
	TXLockFile = "tx_agent.lock"
)

// rxStateLockFile guards read-modify-write cycles of the RX state file. It
// is held for milliseconds at a time, so the watcher, rx approve, rx
// capture and rx mark-completed can all update the state beside each other.
const rxStateLockFile = "rx_state.lock"

// lockWait bounds how long a store's Update or CleanTemps waits for another
// writer.
const lockWait = 15 * time.Second

// RXStore is the RX state file in a state directory.
type RXStore struct {
	Dir string
}

// Path is the state file.
func (s *RXStore) Path() string { return filepath.Join(s.Dir, RXStateFile) }

// Load reads the state without locking: the file is only ever replaced by
// rename, so a reader sees one whole version. A corrupt file is a
// *CorruptError naming it, and is left untouched.
func (s *RXStore) Load() (RX, error) { return LoadRX(s.Dir) }

// Update applies fn to the current state under the state lock and writes
// the result atomically when fn changed it. An error from fn writes
// nothing and is returned as is.
func (s *RXStore) Update(fn func(*RX) error) (RX, error) {
	return update(s.guard(), s.Load, cloneRX, fn, func(r RX) error { return SaveRX(s.Dir, r) })
}

// CleanTemps removes temp files a killed writer left beside the state
// file; it takes the state lock, which proves no writer is mid-write.
func (s *RXStore) CleanTemps() ([]string, error) { return s.guard().cleanTemps() }

func (s *RXStore) guard() guarded {
	return guarded{lock: filepath.Join(s.Dir, rxStateLockFile), what: "state " + s.Path(), path: s.Path()}
}

// guarded is a state file changed only under its lock file, which is held
// for milliseconds; what names the file in lock errors.
type guarded struct{ lock, what, path string }

// update is a read-modify-write under the lock: load, fn on a deep copy
// (clone), save when fn changed it. It returns the state as it now is;
// zero when the lock or load failed.
func update[T any](g guarded, load func() (T, error), clone func(T) T, fn func(*T) error, save func(T) error) (T, error) {
	var zero T
	lock, err := localfile.AcquireWaiting(g.lock, g.what, lockWait)
	if err != nil {
		return zero, err
	}
	defer lock.Release()
	before, err := load()
	if err != nil {
		return zero, err
	}
	after := clone(before)
	if err := fn(&after); err != nil {
		return before, err
	}
	if reflect.DeepEqual(before, after) {
		return after, nil
	}
	if err := save(after); err != nil {
		return before, err
	}
	return after, nil
}

// cleanTemps removes temp files a killed writer left beside the file,
// under its lock (no writer is mid-write then).
func (g guarded) cleanTemps() ([]string, error) {
	lock, err := localfile.AcquireWaiting(g.lock, g.what, lockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	return localfile.CleanTemps(g.path)
}

// cloneRX deep-copies the state so fn's changes can be compared with the
// original.
func cloneRX(s RX) RX {
	c := s
	c.CompletedTaskIDs = slices.Clone(s.CompletedTaskIDs)
	c.ReplacedTaskIDs = slices.Clone(s.ReplacedTaskIDs)
	if s.AcceptedTask != nil {
		a := *s.AcceptedTask
		c.AcceptedTask = &a
	}
	c.SeenTaskDigests = maps.Clone(s.SeenTaskDigests)
	if s.Approval != nil {
		a := *s.Approval
		c.Approval = &a
	}
	c.CaptureInProgress = s.CaptureInProgress.Clone()
	return c
}
