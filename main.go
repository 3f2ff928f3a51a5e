// Command rfhandoff coordinates an over-the-air RF experiment between an RX
// laptop and a MAIN PC through a shared git remote (see README.md).
package main

import (
	"os"

	"rfhandoff/exec"
)

func main() {
	// First: this may be the Windows Ctrl-C helper, which must not parse
	// a command line (exec/ctrlc_windows.go).
	exec.ServeHelper()
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
