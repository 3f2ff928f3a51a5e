package rxwatch

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"rfhandoff/state"
)

// StateLockFile guards read-modify-write cycles of the RX state file. It is
// held for milliseconds at a time (see the package comment).
const StateLockFile = "rx_state.lock"

// stateLockWait bounds how long Update waits for another writer.
const stateLockWait = 15 * time.Second

// Store is the RX state file in a state directory.
type Store struct {
	Dir string
}

// Path is the state file.
func (s *Store) Path() string { return filepath.Join(s.Dir, state.RXStateFile) }

// Load reads the state without locking: the file is only ever replaced by
// rename, so a reader sees one whole version. A corrupt file is a
// *state.CorruptError naming it, and is left untouched.
func (s *Store) Load() (state.RX, error) { return state.LoadRX(s.Dir) }

// BusyError is a state lock that stayed held longer than Update waits.
type BusyError struct {
	Path string
	Err  error
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("state %s stayed locked for %s: %v", e.Path, stateLockWait, e.Err)
}
func (e *BusyError) Unwrap() error { return e.Err }

// Update applies fn to the current state under the state lock and writes
// the result atomically when fn changed it. An error from fn writes
// nothing and is returned as is.
func (s *Store) Update(fn func(*state.RX) error) (state.RX, error) {
	lock, err := s.lock()
	if err != nil {
		return state.RX{}, err
	}
	defer lock.Release()
	before, err := s.Load()
	if err != nil {
		return state.RX{}, err
	}
	after := clone(before)
	if err := fn(&after); err != nil {
		return before, err
	}
	if reflect.DeepEqual(before, after) {
		return after, nil
	}
	if err := state.SaveRX(s.Dir, after); err != nil {
		return before, err
	}
	return after, nil
}

// lock takes the state lock, waiting while another writer holds it.
func (s *Store) lock() (*state.Lock, error) {
	path := filepath.Join(s.Dir, StateLockFile)
	deadline := time.Now().Add(stateLockWait)
	for {
		l, err := state.Acquire(path)
		var le *state.LockedError
		if !errors.As(err, &le) {
			return l, err
		}
		if time.Now().After(deadline) {
			return nil, &BusyError{Path: s.Path(), Err: err}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cleanTemps removes temp files a killed writer left beside the state
// file; it takes the state lock, which proves no writer is mid-write.
func (s *Store) cleanTemps() ([]string, error) {
	lock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	return state.CleanTemps(s.Path())
}

// clone deep-copies the state so fn's changes can be compared with the
// original.
func clone(s state.RX) state.RX {
	c := s
	c.CompletedTaskIDs = slices.Clone(s.CompletedTaskIDs)
	c.SeenTaskDigests = maps.Clone(s.SeenTaskDigests)
	if s.Approval != nil {
		a := *s.Approval
		c.Approval = &a
	}
	c.CaptureInProgress = s.CaptureInProgress.Clone()
	return c
}
