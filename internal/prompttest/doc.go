// Package prompttest runs a program on a real terminal for tests.
//
// Start gives the child a terminal of its own that the test plays the
// operator on: WaitFor reads what the child shows, Send types a line. On
// Unix it is a pseudo-terminal, the child's controlling terminal (new
// session, TIOCSCTTY), so code that opens /dev/tty talks to the test. On
// Windows it is a pseudo-console (ConPTY), the child's console, so CONIN$
// and CONOUT$ are the test's; the console renders its screen, and what the
// test reads is that rendering with the console's own cursor and erase
// sequences taken out (conhost.go). A package whose tests call Start on
// Windows calls Serve first in TestMain (the test binary launches the child
// on the console, start_windows.go). StartDetached runs a child with no
// controlling terminal or console at all, stdin piped.
//
// Processes are started with os.StartProcess (and, for the pseudo-console,
// CreateProcess): the only package allowed to import os/exec is
// rfhandoff/exec, and it has no use for terminals.
//
// What it offers: Start (a program on a fresh terminal, with Send, Type and
// WaitFor), StartDetached (no terminal at all) and Serve, all returning or
// serving a Session with its output.
package prompttest
