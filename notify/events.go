package notify

import (
	"fmt"
	"time"

	"rfhandoff/config"
	"rfhandoff/task"
)

// Task is what a message may say about a task, never its body; Title is
// raw, sanitized when rendered.
type Task struct{ ID, Title, Risk string }

func (t Task) event(name, detail string) Event {
	return Event{Name: name, TaskID: t.ID, Title: t.Title, RiskLevel: t.Risk, Detail: detail}
}

func ApprovalNeeded(t Task) Event {
	return t.event(config.EventApprovalNeeded, "a new task awaits [A] at the RX terminal (rx watch or rx approve)")
}

func AuthorizationNeeded(t Task, secondsLeft int) Event {
	return t.event(config.EventAuthorizationNeeded,
		fmt.Sprintf("a READY result passed every check: the MAIN terminal asks for the phrase, %d s left", secondsLeft))
}

func CaptureStarted(t Task, pid int) Event {
	return t.event(config.EventCaptureStarted, fmt.Sprintf("hackrf_transfer started (pid %d)", pid))
}

// CaptureComplete: overruns is nil when the tool did not print its statistics.
func CaptureComplete(t Task, exitCode int, sizeBytes int64, overruns *int) Event {
	ov := "unknown"
	if overruns != nil {
		ov = fmt.Sprint(*overruns)
	}
	return t.event(config.EventCaptureComplete,
		fmt.Sprintf("capture complete: exit code %d, %d bytes, overruns %s", exitCode, sizeBytes, ov))
}

func CaptureFailed(t Task, reason string) Event {
	return t.event(config.EventCaptureFailed, "capture failed: "+reason)
}

func TXExecuted(t Task, action string, rfTX, exitCode int) Event {
	return t.event(config.EventTXExecuted,
		fmt.Sprintf("tx execute ran the %s action: rf_tx %d, exit code %d", action, rfTX, exitCode))
}

func remoteUnreachable(watcher string, failingFor time.Duration, reason string) Event {
	return Event{Name: config.EventRemoteUnreachable,
		Detail: fmt.Sprintf("%s cannot reach the remote for %s: %s", watcher, failingFor.Round(time.Second), reason)}
}

func remoteBack(watcher string) Event {
	return Event{Name: config.EventRemoteBack, Detail: watcher + " reaches the remote again"}
}

func WatcherStopped(watcher, reason string) Event {
	return Event{Name: config.EventWatcherStopped, Detail: watcher + " stopped: " + reason}
}

// examples are the events config check shows, one per name.
func examples() map[string]Event {
	t := Task{ID: "EXAMPLE_TASK_001", Title: "Example task title", Risk: "YELLOW"}
	ov := 0
	return map[string]Event{
		config.EventApprovalNeeded:      ApprovalNeeded(t),
		config.EventAuthorizationNeeded: AuthorizationNeeded(t, 24),
		config.EventCaptureStarted:      CaptureStarted(t, 4242),
		config.EventCaptureComplete:     CaptureComplete(t, 0, 480000000, &ov),
		config.EventCaptureFailed:       CaptureFailed(t, "hackrf_transfer exited 1"),
		config.EventTXExecuted:          TXExecuted(t, "fake", 0, 0),
		config.EventRemoteUnreachable:   remoteUnreachable("rx watch", 5*time.Minute, "the remote did not answer"),
		config.EventRemoteBack:          remoteBack("rx watch"),
		config.EventWatcherStopped:      WatcherStopped("rx watch", "[S] at the prompt"),
	}
}

func FromTask(t *task.Task) Task {
	if t == nil {
		return Task{}
	}
	return Task{ID: t.ID, Title: t.Title, Risk: t.EffectiveLevel.String()}
}
