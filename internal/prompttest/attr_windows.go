package prompttest

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detachedAttr: no console at all, as a service or a Task Scheduler job
// without an interactive session has; with console, one of its own that
// nobody types in, as a console window nobody looks at.
func detachedAttr(console bool) *syscall.SysProcAttr {
	if console {
		return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_CONSOLE}
	}
	return &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
}
