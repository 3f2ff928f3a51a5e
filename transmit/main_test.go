package transmit

import (
	"os"
	"testing"

	"rfhandoff/internal/testrun"
)

// TestMain runs more of the package's parallel tests at once than
// GOMAXPROCS: they mostly wait on git subprocesses and poll intervals.
func TestMain(m *testing.M) {
	testrun.ParallelByDefault(testrun.Waiting)
	os.Exit(m.Run())
}
