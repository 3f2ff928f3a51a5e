package localfile

import (
	"errors"

	"golang.org/x/sys/windows"
)

// PIDAlive reports whether a process with this PID is running: it can be
// opened and has no exit code yet (a handle held somewhere keeps an ended
// process's pid from being reused, so "opened" alone is not "alive").
// Access denied means it exists but belongs to someone else: alive.
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

// StillActive is STILL_ACTIVE, the exit code of a running process
// (exec.ProcessStart asks it too).
const StillActive = 259
