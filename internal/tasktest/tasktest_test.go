package tasktest

import (
	"strings"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/task"
)

// TestTaskFileParses: every shape the fixtures use is a task the parser
// accepts, at the level the spec asks for and with the flags it implies.
func TestTaskFileParses(t *testing.T) {
	head := strings.Repeat("ab", 20)
	for _, c := range []struct {
		name      string
		spec      TaskSpec
		level     gate.Level
		hw, rx    bool
		tx        bool
		allowPush string
	}{
		{"zero is green", TaskSpec{ID: "TT_GREEN"}, gate.Green, false, false, false, task.PushNo},
		{"capture", Capture("TT_CAPTURE"), gate.Yellow, true, true, false, task.PushRXResultOnly},
		{"red brings rf_tx", TaskSpec{ID: "TT_RED", Level: gate.Red}, gate.Red, true, true, true, task.PushRXResultOnly},
		{"flags derive the level", TaskSpec{ID: "TT_RX", HardwareAccess: true, RFRX: true}, gate.Yellow, true, true, false, task.PushNo},
		{"a declared level above the flags", TaskSpec{ID: "TT_UP", HardwareAccess: true, Level: gate.Red}, gate.Red, true, false, false, task.PushNo},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.spec.ExpectedHead = head
			got, err := task.Parse([]byte(TaskFile(c.spec)), task.Options{TaskBranch: TaskBranch})
			if err != nil {
				t.Fatalf("%v\n%s", err, TaskFile(c.spec))
			}
			if got.DeclaredLevel != c.level || got.HardwareAccess != c.hw || got.RFRX != c.rx || got.RFTX != c.tx || got.AllowPush != c.allowPush {
				t.Errorf("level %v hw %v rx %v tx %v push %s; want %v %v %v %v %s",
					got.DeclaredLevel, got.HardwareAccess, got.RFRX, got.RFTX, got.AllowPush, c.level, c.hw, c.rx, c.tx, c.allowPush)
			}
			if got.ID != c.spec.ID || got.ExpectedHead != head || got.SourceBranch != TaskBranch {
				t.Errorf("id %q head %q branch %q", got.ID, got.ExpectedHead, got.SourceBranch)
			}
		})
	}
}
