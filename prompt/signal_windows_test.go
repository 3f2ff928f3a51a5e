package prompt_test

import "syscall"

// sigUSR1 does not exist on Windows; the scenarios that send it run on a
// Unix terminal and are skipped there (needUnixTerminal).
var sigUSR1 = syscall.Signal(0x1e)
