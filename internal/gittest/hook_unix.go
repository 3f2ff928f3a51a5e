//go:build unix

package gittest

import "testing"

// needHookShell: a unix git runs a shell-script hook with /bin/sh.
func needHookShell(testing.TB, *Remote, string) {}
