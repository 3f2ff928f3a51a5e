package main

import (
	"fmt"
	"io"
)

// shortHelp is what `rfhandoff` alone and `rfhandoff help` print before
// the command list: the two commands a new lab tries first.
const shortHelp = `rfhandoff coordinates one over-the-air RF experiment between HackRF receivers
(RX nodes) and a MAIN PC, over a shared git remote.

Try first:
  rfhandoff demo          the whole protocol in a throw-away sandbox with the HackRF
                          simulator; you type the approvals (--auto answers them)
  rfhandoff doctor rx     on an RX node (doctor main on the MAIN PC), inside the lab's
                          checkout: checks this machine's setup and changes nothing

`

// helpArgs turns `rfhandoff` alone and `rfhandoff help [COMMAND...]` into
// kong's --help, printing the short help first for the first two. The
// returned code is -1 to go on with args, -2 when rfhandoff ran with no
// arguments (the help is printed, and the exit status is 2).
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
