package prompt_test

import "testing"

// needUnixTerminal skips a scenario that pins what only a Unix terminal
// does (why says what); the rest run on a Windows pseudo-console.
func needUnixTerminal(t testing.TB, why string) {
	t.Helper()
	t.Skip("prompt: " + why + "; this scenario runs on Unix")
}
