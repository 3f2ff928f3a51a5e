//go:build unix

package exec

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processGone is a reap-free check: a zombie still answers signal 0, so
// /proc is looked at too.
func processGone(pid int) bool {
	err := syscall.Kill(pid, 0)
	return errors.Is(err, syscall.ESRCH) || isZombie(pid)
}

func isZombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(data))
	return len(f) > 2 && f[2] == "Z"
}
