package main

import (
	"errors"
	"fmt"
	"strings"

	"rfhandoff/captureplan"
	"rfhandoff/gate"
	"rfhandoff/hiddentext"
	"rfhandoff/localfile"
	"rfhandoff/task"
)

// TaskValidateCmd checks a task file offline (PROTOCOL#task-file, PROTOCOL#command-line).
type TaskValidateCmd struct {
	File string `arg:"" type:"path" help:"The task file (NEXT_RX_TASK.md)."`
}

func (c *TaskValidateCmd) Run(app *App) error {
	limit := app.Policy.Limits.MaxTaskBytes
	if limit <= 0 {
		limit = task.DefaultMaxBytes
	}
	data, err := readTaskFile(c.File, limit)
	if err != nil {
		return err
	}
	t, err := task.Parse(data, task.Options{TaskBranch: app.Policy.Repo.TaskBranch, MaxBytes: limit})
	if err != nil {
		return fmt.Errorf("%s: %w", c.File, err)
	}
	w := app.Stdout
	fmt.Fprintf(w, "valid task %s\n", t.ID)
	fmt.Fprintf(w, "title:     %s\n", hiddentext.SanitizeLine(t.Title))
	fmt.Fprintf(w, "declared:  %s\n", t.DeclaredLevel)
	derived := t.DerivedLevel.String()
	if r := gate.Reasons(t.Flags()); len(r) > 0 {
		derived += " (" + strings.Join(r, ", ") + ")"
	}
	fmt.Fprintf(w, "derived:   %s\n", derived)
	fmt.Fprintf(w, "effective: %s\n", t.EffectiveLevel)
	fmt.Fprintf(w, "approval:  %s\n", gate.DescribeApproval(t.EffectiveLevel, t.RFTX, t.ID))
	fmt.Fprintf(w, "sha256:    %s\n", t.SHA256)
	// The task's own capture and schedule (PROTOCOL#task-file).
	if c := t.Capture; !c.IsZero() {
		var set []string
		for _, f := range []struct {
			v    int64
			what string
		}{{c.FrequencyHz, "%d Hz"}, {c.SampleRateHz, "%d samples/s"}, {c.DurationS, "%d s"}} {
			if f.v != 0 {
				set = append(set, fmt.Sprintf(f.what, f.v))
			}
		}
		if len(set) > 0 {
			fmt.Fprintf(w, "capture:   %s (the rest from each RX policy)\n", strings.Join(set, ", "))
		}
		if !c.StartAt.IsZero() {
			fmt.Fprintf(w, "start:     %s, %s\n", captureplan.StartText(c.StartAt), c.SyncMode)
		}
	}
	return nil
}

// readLimited is localfile.ReadRegular with tooLarge formatting the path
// and limit of a file over it.
func readLimited(path string, limit int64, tooLarge string) ([]byte, error) {
	data, err := localfile.ReadRegular(path, limit)
	if _, ok := errors.AsType[*localfile.TooLargeError](err); ok {
		return nil, fmt.Errorf(tooLarge, path, limit)
	}
	return data, err
}

func readTaskFile(path string, limit int64) ([]byte, error) {
	return readLimited(path, limit, "%s: exceeds the task size limit of %d bytes (limits.max_task_bytes)")
}
