package localfile

import (
	"errors"
	"fmt"
	"time"
)

// AcquireWaiting is Acquire waiting up to wait, for locks held for
// milliseconds around one read-modify-write of a file (what, in the error).
func AcquireWaiting(path, what string, wait time.Duration) (*Lock, error) {
	deadline := time.Now().Add(wait)
	for {
		l, err := Acquire(path)
		var le *LockedError
		if !errors.As(err, &le) {
			return l, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s stayed locked for %s: %w", what, wait, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
