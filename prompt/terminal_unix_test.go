//go:build unix

package prompt_test

import "testing"

func needUnixTerminal(testing.TB, string) {}
