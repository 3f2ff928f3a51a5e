package main

import (
	"os"

	"rfhandoff/exec"
)

func main() {
	// First: this may be the Windows Ctrl-C helper, which must not parse
	// a command line (exec/ctrlc_windows.go).
	exec.ServeHelper()
	os.Exit(Main(os.Args, os.Stdout, os.Stderr))
}
