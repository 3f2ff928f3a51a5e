package demo

import "fmt"

// TaskID is the demo task's ID. Every sandbox is new, so it never collides
// with a completed task.
const TaskID = "DEMO_RX_CAPTURE_001"

// taskFile is the NEXT_RX_TASK.md MAIN pushes: a YELLOW receive task (RF
// RX, the result may be pushed, no RF TX on the RX side) bound to the task
// branch's base commit.
func taskFile(baseCommit string, t Timing) string {
	return fmt.Sprintf(`TASK_ID = %s
TASK_TITLE = Demo: bounded 433.92 MHz receive while MAIN runs the fake TX action
SOURCE_BRANCH = %s
EXPECTED_HEAD = %s
REQUIRES_APPROVAL = YES
HARDWARE_ACCESS = YES
RF_RX = YES
RF_TX = NO
ALLOW_COMMIT = NO
ALLOW_PUSH = RX_RESULT_ONLY
RISK_LEVEL = YELLOW

## What the RX laptop is asked to do

Capture %d s at 433.92 MHz, 2 Msps (the policy's [capture] values) with the
HackRF (here: the simulator), on the common 10 MHz clock (CLKIN), and publish
READY to the result branch rx-node while the capture runs, COMPLETE when it
ends. Only RX_RESULT.json and RX_RESULT.md are pushed; raw IQ stays local.

The RX side never transmits. The MAIN PC decides about TX on its own side,
after its operator types AUTHORIZE RF TX; in this demo its TX action is the
fake one, which opens nothing and records RF TX = 0.
`, TaskID, TaskBranch, baseCommit, t.PlannedS)
}
