package localfile

import (
	"errors"

	"golang.org/x/sys/windows"
)

// PIDAlive reports whether a process with this PID is running: a handle
// held somewhere keeps an ended process's pid, so it must also have no
// exit code yet. Access denied: someone else's, alive.
func PIDAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == StillActive
}

// StillActive is STILL_ACTIVE, a running process's exit code.
const StillActive = 259
