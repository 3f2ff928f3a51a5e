// Package prompttest runs a program under a real pseudo-terminal for tests.
//
// Start makes the pty's slave side the child's controlling terminal (new
// session, TIOCSCTTY), so code in the child that opens /dev/tty talks to the
// test, which plays the operator through the master side: WaitFor reads
// what the child shows, Send types a line. StartDetached runs a child in a
// new session with no controlling terminal at all, stdin piped.
//
// Processes are started with os.StartProcess: the only package allowed to
// import os/exec is rfhandoff/exec, and it has no use for terminals.
//
// What it offers: Start (a program on a fresh pseudo-terminal, with Send, Type
// and WaitFor) and StartDetached (no controlling terminal at all), both
// returning a Session with its output.
package prompttest
