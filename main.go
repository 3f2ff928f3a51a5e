// Command rfhandoff coordinates an over-the-air RF experiment between an RX
// laptop and a MAIN PC through a shared git remote (see README.md).
package main

import (
	"os"
)

func main() {
	os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
