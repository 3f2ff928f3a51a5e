package hostclock

import (
	"context"
	"strings"
	"testing"
)

// Windows has no bound to read: Bound says so and asks nothing (a nil
// runner would panic if it did).
func TestBoundCannotTellOnWindows(t *testing.T) {
	b, err := Bound(context.Background(), nil)
	if b.Sync != Unknown || err == nil || !strings.Contains(err.Error(), "cannot be told (Windows: rfhandoff reads no error bound") ||
		!strings.Contains(err.Error(), "SYNC_MODE=PPS") {
		t.Fatalf("%v: %v", b, err)
	}
}
