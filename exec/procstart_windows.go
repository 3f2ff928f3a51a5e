package exec

import (
	"rfhandoff/localfile"

	"golang.org/x/sys/windows"
)

func processStart(pid int) (int64, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, false
	}
	defer windows.CloseHandle(h)
	// A handle held somewhere keeps an ended process's pid.
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil || code != localfile.StillActive {
		return 0, false
	}
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exited, &kernel, &user) != nil {
		return 0, false
	}
	v := int64(created.HighDateTime)<<32 | int64(created.LowDateTime)
	return v, v > 0
}
