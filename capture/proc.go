package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// The recorded hackrf_transfer of a capture whose rfhandoff was killed is
// no child of ours: it is found and stopped by its pid, and only after
// /proc/<pid>/cmdline shows it is that capture's hackrf_transfer (a pid
// may have been reused). Linux only, like Pdeathsig (exec/spawn_linux.go):
// without /proc the process counts as gone.

// isCaptureTool reports whether pid is a live hackrf_transfer writing
// path. A zombie has an empty cmdline, so it counts as gone.
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

// toolEnd is how the recorded hackrf_transfer was found to end.
type toolEnd struct {
	wasRunning bool   // it was still running when the recovery began
	how        string // one sentence for RX_RESULT.md
}

// endCaptureTool waits until the recorded hackrf_transfer is gone: it got
// SIGINT when rfhandoff died (Pdeathsig) and normally ends within a
// second. After grace it is sent SIGINT, after another grace SIGKILL; one
// that survives that is an error (its file may still change, so nothing
// may be published).
func endCaptureTool(ctx context.Context, pid int, path string, grace time.Duration, log func(string, ...any)) (toolEnd, error) {
	if !isCaptureTool(pid, path) {
		return toolEnd{how: fmt.Sprintf("hackrf_transfer (pid %d) had already ended", pid)}, nil
	}
	began := time.Now()
	gone := func(d time.Duration) bool {
		deadline := time.Now().Add(d)
		for isCaptureTool(pid, path) {
			if time.Now().After(deadline) || ctx.Err() != nil {
				return false
			}
			time.Sleep(50 * time.Millisecond)
		}
		return true
	}
	log("waiting for the interrupted capture's hackrf_transfer to end", "pid", pid, "up_to", grace)
	if gone(grace) {
		return toolEnd{wasRunning: true, how: fmt.Sprintf(
			"hackrf_transfer (pid %d) was still running when the recovery began and ended %s later on its own (the SIGINT it gets when its parent dies)",
			pid, fmtDur(time.Since(began)))}, nil
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		log("the interrupted capture's hackrf_transfer is still running; signalling it", "pid", pid, "signal", sigName(sig))
		at := time.Since(began)
		if err := syscall.Kill(pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			return toolEnd{}, fmt.Errorf("signalling hackrf_transfer (pid %d): %w", pid, err)
		}
		if gone(grace) {
			return toolEnd{wasRunning: true, how: fmt.Sprintf(
				"hackrf_transfer (pid %d) was still running %s after the recovery began and was stopped with %s",
				pid, fmtDur(at), sigName(sig))}, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return toolEnd{}, err
	}
	return toolEnd{}, fmt.Errorf("hackrf_transfer (pid %d) is still running after SIGINT and SIGKILL; its file %s may still change", pid, path)
}

func sigName(sig syscall.Signal) string {
	if sig == syscall.SIGKILL {
		return "SIGKILL"
	}
	return "SIGINT"
}
