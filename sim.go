package main

import (
	"io"
	"os"

	"rfhandoff/hacksim"
)

// simulatorMain runs the HackRF simulator when rfhandoff is invoked under a
// HackRF tool's name (a symlink or copy named hackrf_info, hackrf_transfer or
// hackrf_clock; SPEC §15). name is argv[0] so usage messages match.
func simulatorMain(argv0 string, args []string, stdout, stderr io.Writer) (int, bool) {
	if !hacksim.IsTool(argv0) {
		return 0, false
	}
	return hacksim.Main(argv0, args, os.Getenv, stdout, stderr), true
}
