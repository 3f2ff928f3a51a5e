package main

import (
	"os"

	"rfhandoff/exec"
)

func main() {
	// First: the Windows Ctrl-C helper must not parse a command line.
	exec.ServeHelper()
	os.Exit(Main(os.Args, os.Stdout, os.Stderr))
}
