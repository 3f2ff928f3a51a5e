package main

import (
	"fmt"
	"io"
)

// shortHelp precedes the command list for `rfhandoff` and `rfhandoff help`.
const shortHelp = `rfhandoff coordinates one over-the-air RF experiment between HackRF receivers
(RX nodes) and a MAIN PC, over a shared git remote.

Try first:
  rfhandoff demo          the whole protocol in a throw-away sandbox with the HackRF
                          simulator; you type the approvals (--auto answers them)
  rfhandoff doctor rx     on an RX node (doctor main on the MAIN PC), inside the lab's
                          checkout: checks this machine's setup and changes nothing

`

// helpArgs turns `rfhandoff` alone and `rfhandoff help [COMMAND...]` into
// kong's --help. The code is -1, or -2 for no arguments (exit status 2).
func helpArgs(args []string, stdout io.Writer) ([]string, int) {
	switch {
	case len(args) == 1:
		fmt.Fprint(stdout, shortHelp)
		return []string{args[0], "--help"}, -2
	case args[1] == "help" && len(args) == 2:
		fmt.Fprint(stdout, shortHelp)
		return []string{args[0], "--help"}, -1
	case args[1] == "help":
		return append(append([]string{args[0]}, args[2:]...), "--help"), -1
	}
	return args, -1
}
