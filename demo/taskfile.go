package demo

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"rfhandoff/task"
)

// taskID never collides with a completed task: every sandbox is new.
const taskID = "DEMO_RX_CAPTURE_001"

const taskTitle = "Demo: bounded 433.92 MHz receive while MAIN runs the fake TX action"

// taskArgs are task new's arguments for the demo task, a YELLOW receive task.
func (d *runner) taskArgs(bodyFile string) []string {
	args := []string{"task", "new", taskID, "--title", taskTitle, "--rf-rx", "--allow-push", "RX_RESULT_ONLY", "--body-file", bodyFile}
	if d.sb.multi() {
		args = append(args, "--rx-nodes", d.nodeList(","))
	}
	if d.sb.Sync != "" {
		args = append(args, "--duration-s", strconv.Itoa(max(d.o.Timing.PlannedS, 15)),
			"--start-in", startIn(d.o.Auto, len(d.sb.nodes)).String(), "--sync", d.sb.Sync)
	}
	return args
}

func taskBody(t Timing, multi bool) string {
	who, where := "the RX laptop", "the result branch rx-node"
	if multi {
		who, where = "each RX node", "its own result branch"
	}
	return fmt.Sprintf(`## What `+who+` is asked to do

Capture %d s at 433.92 MHz, 2 Msps (the policy's [capture] values) with the
HackRF (here: the simulator), on the common 10 MHz clock (CLKIN), and publish
READY to `+where+` while the capture runs, COMPLETE when it
ends. Only RX_RESULT.json and RX_RESULT.md are pushed; raw IQ stays local.

The RX side never transmits. The MAIN PC decides about TX on its own side,
after its operator types AUTHORIZE RF TX; in this demo its TX action is the
fake one, which opens nothing and records RF TX = 0.
`, t.PlannedS)
}

func startAtOf(body []byte) (time.Time, error) {
	for _, l := range strings.Split(string(body), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if ok && strings.TrimSpace(k) == task.FieldStartAt {
			return task.ParseStartAt(strings.TrimSpace(v))
		}
	}
	return time.Time{}, fmt.Errorf("the task task new wrote has no %s line", task.FieldStartAt)
}

func syncBody(mode string) string {
	if mode == "" {
		return ""
	}
	return `
The header's CAPTURE_DURATION_S is what every node captures, and START_AT
with SYNC_MODE = ` + mode + ` when: every node's first sample is due on
START_AT, and READY and COMPLETE say how well it landed (alignment).
`
}
