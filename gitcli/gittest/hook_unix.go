//go:build unix

package gittest

import "testing"

// writeHook: a unix git runs a shell-script hook with /bin/sh.
func writeHook(t testing.TB, _ *Remote, path, script string) {
	t.Helper()
	WriteScript(t, path, script)
}
