package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain puts rfhandoff and the HackRF simulator (the same binary under
// the tools' names) on PATH for every test in this package: Go tests, pty
// tests and testscript scripts all run the real binary as a subprocess.
func TestMain(m *testing.M) {
	run := func() { os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
	testscript.Main(m, map[string]func(){
		"rfhandoff":       run,
		"hackrf_info":     run,
		"hackrf_transfer": run,
		"hackrf_clock":    run,
	})
}
