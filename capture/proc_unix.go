//go:build unix

package capture

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
)

// isCaptureTool reports whether pid is a live hackrf_transfer writing
// path, by /proc: Linux only, like Pdeathsig; without /proc, or as a
// zombie (an empty cmdline), the process counts as gone.
func isCaptureTool(pid int, path string) bool {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(raw) == 0 {
		return false
	}
	args := bytes.Split(bytes.TrimSuffix(raw, []byte{0}), []byte{0})
	if filepath.Base(string(args[0])) != "hackrf_transfer" {
		return false
	}
	cwd, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	return slices.ContainsFunc(args[1:], func(a []byte) bool {
		arg := string(a)
		if !filepath.IsAbs(arg) && cwd != "" {
			arg = filepath.Join(cwd, arg)
		}
		return filepath.Clean(arg) == path
	})
}

// stopSteps: SIGINT (hackrf_transfer's clean exit), then SIGKILL.
var stopSteps = []stopStep{{"SIGINT", signaller(syscall.SIGINT)}, {"SIGKILL", signaller(syscall.SIGKILL)}}

func signaller(sig syscall.Signal) func(int) error {
	return func(pid int) error {
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
		return nil
	}
}
