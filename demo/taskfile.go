package demo

import (
	"fmt"
	"strings"
)

// taskID is the demo task's ID. Every sandbox is new, so it never collides
// with a completed task.
const taskID = "DEMO_RX_CAPTURE_001"

// taskTitle is the demo task's TASK_TITLE.
const taskTitle = "Demo: bounded 433.92 MHz receive while MAIN runs the fake TX action"

// taskArgs are the task new arguments for the demo task: a YELLOW receive
// task (RF RX, the result may be pushed, no RF TX on the RX side), its
// EXPECTED_HEAD the fetched task branch tip.
// With nodes (several), RX_NODES names them.
func taskArgs(bodyFile string, nodes []string) []string {
	args := []string{"task", "new", taskID, "--title", taskTitle, "--rf-rx", "--allow-push", "RX_RESULT_ONLY", "--body-file", bodyFile}
	if len(nodes) > 0 {
		args = append(args, "--rx-nodes", strings.Join(nodes, ","))
	}
	return args
}

// taskBody is the Markdown body of the demo task.
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
