package gittest

import (
	"os"
	"syscall"
	"testing"
)

// WriteScript writes an executable script a test will run (a hook, an
// askpass, a helper). The write holds syscall.ForkLock: a process forked
// by another goroutine while the file is open for writing would inherit
// that descriptor until its own exec, and running the script in that
// window fails with "text file busy" (ETXTBSY).
func WriteScript(t testing.TB, path, script string) {
	t.Helper()
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, []byte(script), 0o700)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
}
