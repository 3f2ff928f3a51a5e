//go:build unix

package prompt_test

import "syscall"

// sigUSR1 tells a helper waiting on it to go on.
var sigUSR1 = syscall.SIGUSR1
