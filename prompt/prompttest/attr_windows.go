package prompttest

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// needPTY skips: Windows has no pseudo-terminal a test can type into (a
// pseudo-console, ConPTY, is not one the child opens as CONIN$ under Wine).
func needPTY(t testing.TB) {
	t.Helper()
	t.Skip("prompttest: no pseudo-terminal on Windows; the terminal scenarios run on Unix")
}

func ttyAttr(int) *syscall.SysProcAttr { return nil }

// detachedAttr: no console at all, as a service or a Task Scheduler job
// without an interactive session has; with console, one of its own that
// nobody types in, as a console window nobody looks at.
func detachedAttr(console bool) *syscall.SysProcAttr {
	if console {
		return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_CONSOLE}
	}
	return &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
}

// makeRaw is never reached: Start skips at needPTY.
func makeRaw(*os.File) error { return errors.New("prompttest: no pseudo-terminal on Windows") }
