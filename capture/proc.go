package capture

import (
	"context"
	"fmt"
	"rfhandoff/exec"
	"strings"
	"time"
)

// isRecordedTool reports whether a killed capture's hackrf_transfer, no
// child of ours, still runs: a pid may have been reused, so the process
// must have the recorded start (if any) and be hackrf_transfer writing path.
func isRecordedTool(pid int, start int64, path string) bool {
	if start != 0 {
		if now, ok := exec.ProcessStart(pid); !ok || now != start {
			return false
		}
	}
	return isCaptureTool(pid, path)
}

// toolEnd is how the recorded hackrf_transfer was found to end.
type toolEnd struct {
	wasRunning bool   // it was still running when the recovery began
	how        string // one sentence for RX_RESULT.md
}

// endCaptureTool waits until the recorded hackrf_transfer is gone (it got
// SIGINT by Pdeathsig and normally ends within a second), signalling it
// after each grace. One that survives is an error: its file may still
// change, so nothing may be published.
func endCaptureTool(ctx context.Context, pid int, start int64, path string, grace time.Duration, log func(string, ...any)) (toolEnd, error) {
	if !isRecordedTool(pid, start, path) {
		return toolEnd{how: fmt.Sprintf("hackrf_transfer (pid %d) had already ended", pid)}, nil
	}
	began := time.Now()
	gone := func(d time.Duration) bool {
		deadline := time.Now().Add(d)
		for isRecordedTool(pid, start, path) {
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
	var tried []string
	for _, st := range stopSteps {
		log("the interrupted capture's hackrf_transfer is still running; signalling it", "pid", pid, "signal", st.name)
		at := time.Since(began)
		tried = append(tried, st.name)
		if err := st.send(pid); err != nil {
			return toolEnd{}, fmt.Errorf("signalling hackrf_transfer (pid %d): %w", pid, err)
		}
		if gone(grace) {
			return toolEnd{wasRunning: true, how: fmt.Sprintf(
				"hackrf_transfer (pid %d) was still running %s after the recovery began and was stopped with %s",
				pid, fmtDur(at), st.name)}, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return toolEnd{}, err
	}
	return toolEnd{}, fmt.Errorf("hackrf_transfer (pid %d) is still running after %s; its file %s may still change", pid, strings.Join(tried, " and "), path)
}

// stopStep is one way of stopping a process that is not our child.
type stopStep struct {
	name string
	send func(pid int) error
}
