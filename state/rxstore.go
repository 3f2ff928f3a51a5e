package state

import (
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"rfhandoff/localfile"
)

// rxStateLockFile guards read-modify-write cycles of the RX state file. It
// is held for milliseconds at a time, so the watcher, rx approve, rx
// capture and rx mark-completed can all update the state beside each other.
// Lock file names, one per side, kept in the state directory beside (never
// the same as) the state files they guard: the state file is replaced by
// rename, which would swap the locked inode away.
const (
	RXLockFile = "rx_agent.lock"
	TXLockFile = "tx_agent.lock"
)

const rxStateLockFile = "rx_state.lock"

// rxStateLockWait bounds how long Update waits for another writer.
const rxStateLockWait = 15 * time.Second

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
	lock, err := s.lock()
	if err != nil {
		return RX{}, err
	}
	defer lock.Release()
	before, err := s.Load()
	if err != nil {
		return RX{}, err
	}
	after := cloneRX(before)
	if err := fn(&after); err != nil {
		return before, err
	}
	if reflect.DeepEqual(before, after) {
		return after, nil
	}
	if err := SaveRX(s.Dir, after); err != nil {
		return before, err
	}
	return after, nil
}

// CleanTemps removes temp files a killed writer left beside the state
// file; it takes the state lock, which proves no writer is mid-write.
func (s *RXStore) CleanTemps() ([]string, error) {
	lock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	return localfile.CleanTemps(s.Path())
}

// lock takes the state lock, waiting while another writer holds it.
func (s *RXStore) lock() (*localfile.Lock, error) {
	return localfile.AcquireWaiting(filepath.Join(s.Dir, rxStateLockFile), "state "+s.Path(), rxStateLockWait)
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
