//go:build unix

package prompt_test

import "testing"

func needUnixTerminal(testing.TB, string) {}

// enterKey: a Unix terminal's line discipline takes LF (and CR) as Enter.
func enterKey(typed string) string { return typed }

// tabShown is a tab as the terminal passes it on.
const tabShown = "\t"

// pendingLineSurvives: on a Unix terminal a half-typed line is flushed
// with the input queue (tcflush), so nothing of it is left to drop.
const pendingLineSurvives = false
