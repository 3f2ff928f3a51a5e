package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"rfhandoff/capture"
	"rfhandoff/hiddentext"
	"rfhandoff/localfile"
	"rfhandoff/rxside"
	"rfhandoff/state"
)

// RxStatusCmd prints the RX state (PROTOCOL#command-line) without changing
// anything (no git, no lock held).
type RxStatusCmd struct {
	JSON bool `name:"json" help:"Print JSON."`
}

// rxStatus is rx status --json's object.
type rxStatus struct {
	StateFile      string `json:"state_file"`
	WatcherRunning bool   `json:"watcher_running"` // a process holds the watcher lock
	WatcherLockPID int    `json:"watcher_lock_pid"`
	// StaleRunning: a gone watcher's running flag, which the next rx
	// watch, check or approve clears.
	StaleRunning   bool        `json:"stale_running"`
	Outbox         string      `json:"outbox"`          // the approved task's outbox, "" when none
	CaptureRunning bool        `json:"capture_running"` // an rx capture holds the capture lock
	LastResult     *lastResult `json:"last_result,omitempty"`
	State          state.RX    `json:"state"`
}

type lastResult struct {
	TaskID    string `json:"task_id"`
	State     string `json:"state"`
	Simulated bool   `json:"simulated,omitempty"`
}

func (c *RxStatusCmd) Run(app *App) error {
	if err := app.Policy.InCheckout(); err != nil {
		return err
	}
	dir := app.Policy.StatePath()
	store := &state.RXStore{Dir: dir}
	st, err := store.Load()
	if err != nil {
		return err
	}
	held, pid, err := localfile.Probe(filepath.Join(dir, state.RXLockFile))
	if err != nil {
		return err
	}
	capHeld, _, err := localfile.Probe(filepath.Join(dir, capture.LockFile))
	if err != nil {
		return err
	}
	s := rxStatus{StateFile: store.Path(), WatcherRunning: held, WatcherLockPID: pid,
		StaleRunning: st.Running && !held, CaptureRunning: capHeld, State: st}
	if id := st.LastApprovedTaskID; id != "" {
		if r := capture.LocalResult(app.Policy, id); r != nil {
			s.LastResult = &lastResult{TaskID: r.TaskID, State: string(r.State), Simulated: r.Simulated}
		}
	}
	if st.Approval != nil {
		d := rxside.NewManualExecutor(dir, app.Policy).TaskDir(st.Approval.TaskID)
		if _, err := os.Stat(filepath.Join(d, rxside.OutboxTaskFile)); err == nil {
			s.Outbox = d
		}
	}
	if c.JSON {
		return printJSON(app, s)
	}
	// Sanitized: paths come from the policy and IDs from a file on disk.
	w := app.Stdout
	or := func(v string) string {
		if v == "" {
			return "-"
		}
		return hiddentext.SanitizeLine(v)
	}
	fmt.Fprintf(w, "state file:      %s\n", or(s.StateFile))
	printWatcher(w, "watcher:         ", held, s.StaleRunning, pid, st.WatcherPID, "rx watch, check or approve")
	fmt.Fprintf(w, "last seen:       %s at %s\n", or(st.LastSeenTaskID), or(st.LastSeenTaskCommit))
	fmt.Fprintf(w, "last approved:   %s\n", or(st.LastApprovedTaskID))
	if a := st.Approval; a != nil {
		fmt.Fprintf(w, "approval:        %s sha256 %s commit %s at %s\n", or(a.TaskID), or(a.TaskSHA256), or(a.Commit), a.ApprovedAt.Format("2006-01-02T15:04:05Z07:00"))
		if sg := a.Signer; sg != nil {
			fmt.Fprintf(w, "  signed by:     %s %s\n", hiddentext.SanitizeLine(sg.Principal), sg.Fingerprint)
		}
	}
	fmt.Fprintf(w, "deferred:        %s\n", or(st.DeferredTaskID))
	fmt.Fprintf(w, "last completed:  %s\n", or(st.LastCompletedTaskID))
	fmt.Fprintf(w, "completed:       %s\n", or(strings.Join(st.CompletedTaskIDs, ", ")))
	fmt.Fprintf(w, "replaced:        %s\n", or(strings.Join(st.ReplacedTaskIDs, ", ")))
	if a := st.AcceptedTask; a != nil {
		fmt.Fprintf(w, "accepted tip:    %s task file sha256 %s\n", a.Commit, or(a.TaskSHA256))
	} else {
		fmt.Fprintf(w, "accepted tip:    -\n")
	}
	fmt.Fprintf(w, "outbox:          %s\n", or(s.Outbox))
	fmt.Fprintf(w, "capture:         %s\n", captureLine(st.CaptureInProgress, capHeld))
	fmt.Fprintf(w, "last result:     %s\n", lastResultLine(s.LastResult))
	return nil
}

const simulatedNote = "(simulated: rfhandoff's HackRF simulator, no radio)"

func captureLine(r *state.CaptureInProgress, running bool) (line string) {
	if r != nil && r.Simulated {
		defer func() { line += " " + simulatedNote }()
	}
	switch {
	case r == nil && running:
		return "an rx capture holds the capture lock (nothing recorded yet)"
	case r == nil:
		return "-"
	}
	id, data := hiddentext.SanitizeLine(r.TaskID), hiddentext.SanitizeLine(r.DataPath)
	if r.CompleteSHA256 != "" {
		saved := filepath.Join(filepath.Dir(data), capture.ResultName)
		what := fmt.Sprintf("%s finished, COMPLETE saved at %s (data %s)", id, saved, data)
		switch {
		case running:
			return what + "; its rx capture is publishing it"
		case r.CompleteError == "":
			return what + ", not yet published: a running rx watch or the next rx capture publishes it"
		case r.CompleteRefused:
			return what + ", unpublished: the publisher refuses it (" + hiddentext.SanitizeLine(r.CompleteError) +
				"); trying again will not help: look at it, then `rfhandoff rx mark-completed " + id + "` drops the record"
		}
		return what + ", unpublished: " + hiddentext.SanitizeLine(r.CompleteError) + "; a running rx watch or the next rx capture tries again"
	}
	ready := "READY published"
	if !r.ReadyPublished {
		ready = "READY being published"
	}
	what := fmt.Sprintf("%s in progress (hackrf_transfer pid %d, rx capture pid %d, %s, data %s)", id, r.CapturePID, r.RfhandoffPID, ready, data)
	if running {
		return what + "; an rx capture holds the capture lock"
	}
	return what + "; its rx capture is gone without COMPLETE: a running rx watch or the next rx capture publishes an honest one"
}

func lastResultLine(r *lastResult) string {
	if r == nil {
		return "-"
	}
	line := hiddentext.SanitizeLine(r.TaskID) + " " + hiddentext.SanitizeLine(r.State)
	if r.Simulated {
		line += " " + simulatedNote
	}
	return line
}
