package rxside

import (
	"strings"
	"testing"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/node"
	"rfhandoff/task"
)

// PROTOCOL#several-nodes: a task naming its receivers is offered only on a listed
// node, and refused on a node without a name.
func TestForNode(t *testing.T) {
	t.Parallel()
	l, probs := node.ParseList("rx-a, rx-b")
	if probs != nil {
		t.Fatal(probs)
	}
	multi := &task.Task{ID: "TASK_M", Nodes: l}
	single := &task.Task{ID: "TASK_S"}
	for _, tc := range []struct {
		name, node string
		t          *task.Task
		want       Verdict // 0: takes part
		err        string
	}{
		{"single node, no name", "", single, 0, ""},
		{"single node, named", "rx-c", single, 0, ""},
		{"listed", "rx-b", multi, 0, ""},
		{"not listed", "rx-c", multi, NotForNode, ""},
		{"a prefix is not a name", "rx", multi, NotForNode, ""},
		{"no name", "", multi, 0, "no [node] name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := config.Default()
			pol.Node.Name = tc.node
			d, err := forNode(pol, tc.t)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "RX_NODES = rx-a, rx-b") {
					t.Fatalf("err = %v, want one saying %q and the list", err, tc.err)
				}
				return
			}
			if err != nil || d.Verdict != tc.want {
				t.Fatalf("forNode = %v, %v; want %v", d.Verdict, err, tc.want)
			}
			if d.Verdict.AwaitsApproval() {
				t.Errorf("%v awaits approval", d.Verdict)
			}
		})
	}
}

// PROTOCOL#task-file: a task asking a capture outside this node's ranges is
// refused before anything is recorded, naming the field, value, key and
// range; inside them it takes part.
func TestForNodeCaptureRanges(t *testing.T) {
	t.Parallel()
	pol := config.Default()
	pol.Capture.MaxDurationS = 60
	in := &task.Task{ID: "RANGE_0001", Capture: captureplan.Task{DurationS: 60}}
	if d, err := forNode(pol, in); err != nil || d.Verdict != 0 {
		t.Fatalf("inside the range: %v, %v", d.Verdict, err)
	}
	out := &task.Task{ID: "RANGE_0002", Capture: captureplan.Task{DurationS: 61, FrequencyHz: 433_920_000}}
	_, err := forNode(pol, out)
	if err == nil || !strings.Contains(err.Error(), "task RANGE_0002 refused") || !strings.Contains(err.Error(), "CAPTURE_DURATION_S = 61") ||
		!strings.Contains(err.Error(), "capture.max_duration_s (15 to 60)") || !strings.Contains(err.Error(), "nothing recorded") {
		t.Fatalf("outside the range: %v", err)
	}
}
