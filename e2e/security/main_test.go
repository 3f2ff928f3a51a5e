package security

import (
	"os"
	"testing"

	"rfhandoff/internal/testbin"
	"rfhandoff/internal/testrun"
	"rfhandoff/prompt/prompttest"
)

// TestMain builds the rfhandoff binary once and puts it, and the HackRF
// simulator, first on PATH for every test in this package.
func TestMain(m *testing.M) {
	prompttest.Serve()
	testrun.ParallelByDefault(testrun.Waiting)
	os.Exit(testbin.Run(m))
}
