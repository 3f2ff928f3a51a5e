package e2e

import (
	"os"
	"testing"

	"rfhandoff/internal/testbin"
	"rfhandoff/internal/testrun"
	"rfhandoff/prompt/prompttest"
)

// simulatorNames are the HackRF tools' names (testbin.SimulatorNames).
var simulatorNames = testbin.SimulatorNames

// exeSuffix is what the platform needs on a program's file name.
var exeSuffix = testbin.ExeSuffix

// TestMain builds the rfhandoff binary once and puts it, and the HackRF
// simulator, first on PATH for every test in this package: Go tests, pty
// tests and testscript scripts all run the real binary as a subprocess.
func TestMain(m *testing.M) {
	prompttest.Serve()
	testrun.ParallelByDefault(testrun.Waiting)
	os.Exit(testbin.Run(m))
}
