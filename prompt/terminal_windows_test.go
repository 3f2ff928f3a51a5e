package prompt_test

import "testing"

// needUnixTerminal: these scenarios pin a Unix terminal's behaviour (Ctrl-D
// ends input, typed keys echo before anything reads them, SIGUSR1, termios
// raw mode). A Windows console differs in each, so they skip there; the
// prompt runs on a Windows pseudo-console in e2e (prompttest.Start) and in
// this package's console tests.
func needUnixTerminal(t testing.TB) {
	t.Helper()
	t.Skip("prompt: this scenario pins a Unix terminal (Ctrl-D, echo before a read, SIGUSR1, raw mode); " +
		"on Windows the prompt's console runs in e2e and in the console tests here")
}
