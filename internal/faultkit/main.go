package faultkit

import (
	"os"
	"testing"

	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/testbin"
	"rfhandoff/internal/testrun"
)

// Main is the end-to-end packages' TestMain: it serves pty sessions,
// lets tests that mostly wait run eight at a time, builds the rfhandoff
// binary once and puts it, and the HackRF simulator, first on PATH; Go
// tests, pty tests and scripts all run the real binary as a subprocess.
func Main(m *testing.M) {
	prompttest.Serve()
	testrun.ParallelByDefault(testrun.Waiting)
	os.Exit(testbin.Run(m))
}
