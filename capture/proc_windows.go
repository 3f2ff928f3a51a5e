package capture

import (
	"errors"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// isCaptureTool reports whether pid is a live hackrf_transfer.exe. The
// Job Object normally ended it with rfhandoff; the data path is not
// compared, as another process's command line needs its memory.
func isCaptureTool(pid int, _ string) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil || code != stillActive {
		return false
	}
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(h, 0, &buf[0], &n) != nil {
		return false
	}
	return strings.EqualFold(filepath.Base(windows.UTF16ToString(buf[:n])), "hackrf_transfer.exe")
}

// stillActive is STILL_ACTIVE, the exit code of a running process.
const stillActive = 259

// stopSteps: a process that is not our child cannot be sent a Ctrl-C
// without joining its console; it is terminated.
var stopSteps = []stopStep{{"TerminateProcess", terminate}}

func terminate(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
		return nil // gone already
	}
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.TerminateProcess(h, 1)
}
