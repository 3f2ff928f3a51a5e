package prompt_test

import (
	"strings"
	"testing"
)

// needUnixTerminal skips a scenario that pins what only a Unix terminal
// does (why says what); the rest run on a Windows pseudo-console.
func needUnixTerminal(t testing.TB, why string) {
	t.Helper()
	t.Skip("prompt: " + why + "; this scenario runs on Unix")
}

// enterKey: on a console Enter is CR; a lone LF is Ctrl-J, no line end.
func enterKey(typed string) string {
	if strings.HasSuffix(typed, "\n") && !strings.HasSuffix(typed, "\r\n") {
		return strings.TrimSuffix(typed, "\n") + "\r"
	}
	return typed
}

// tabShown: the console renders a tab as the spaces to the next tab stop.
const tabShown = "     "

// pendingLineSurvives: a console read begun at an expired question is
// still pending at the next, holding what was typed; the prompt drops its
// line and asks for it again.
const pendingLineSurvives = true
