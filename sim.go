package main

import "io"

// simulatorMain runs the HackRF simulator when rfhandoff is invoked under a
// HackRF tool's name (SPEC §15). Wired to hacksim once it lands.
func simulatorMain(name string, args []string, stdout, stderr io.Writer) (int, bool) {
	return 0, false
}
