package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"rfhandoff/exec"
	"rfhandoff/hiddentext"
	"rfhandoff/localfile"
)

// AuditShowCmd prints the audit log: decisions, and each subprocess in
// brief (-v: its whole argv).
type AuditShowCmd struct {
	JSON bool `help:"Print the raw JSON lines (every field, the whole argv)."`
	Tail int  `help:"Only the last N lines of the log." placeholder:"N"`
}

func (c *AuditShowCmd) Run(app *App) error {
	path, err := auditPath(app)
	if err != nil {
		return err
	}
	entries, err := exec.ReadAuditTail(path, c.Tail)
	if err != nil {
		return noAuditLog(path, err)
	}
	// The log holds what programs and receivers answered: it reaches the
	// terminal escaped (PROTOCOL#audit-log, PROTOCOL#hidden-text).
	if c.JSON {
		for _, e := range entries {
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			if _, err := app.Stdout.Write(append(hiddentext.EscapeJSON(line), '\n')); err != nil {
				return err
			}
		}
		return nil
	}
	ended := map[string]exec.Entry{}
	for _, e := range entries {
		if e.Event == exec.EventEnd {
			ended[e.ID] = e
		}
	}
	for _, e := range entries {
		var what string
		switch e.Event {
		case exec.EventStart, exec.EventRefused:
			what = "REFUSED (" + e.Reason + ")"
			if e.Event == exec.EventStart {
				what = outcome(e, ended, app.Verbose)
			}
			if app.Verbose {
				what += "  " + strings.Join(e.Argv, " ")
			} else {
				what = fmt.Sprintf("%-22s  %s", command(e), what)
			}
		case exec.EventDelivery:
			what = delivery(e)
		case exec.EventDecision:
			what = decision(e, app.Verbose)
		case exec.EventEnd:
			continue // printed with its start
		default:
			fmt.Fprintln(app.Stdout, hiddentext.SanitizeLine("?  unreadable line: "+e.Error))
			continue
		}
		line := fmt.Sprintf("%s  #%d  %-4s  %s", e.Time.Format(time.RFC3339), e.Seq, e.Role, what)
		fmt.Fprintln(app.Stdout, hiddentext.SanitizeLine(line))
	}
	return nil
}

// auditPath is the audit log, in a checkout.
func auditPath(app *App) (string, error) {
	return app.Policy.AuditPath(), app.Policy.InCheckout()
}

func noAuditLog(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no audit log at %s: nothing has run here yet, or the log was removed", path)
	}
	return err
}

// command is a subprocess in brief: the tool and, for git, its
// subcommand (the first word after the options rfhandoff pins).
func command(e exec.Entry) string {
	if e.Tool != exec.Git {
		return string(e.Tool)
	}
	for i := 1; i < len(e.Argv); i++ {
		a := e.Argv[i]
		switch {
		case a == "-c" || a == "-C":
			i++ // its value
		case strings.HasPrefix(a, "-"):
		default:
			return "git " + a
		}
	}
	return "git"
}

// outcome is how start's subprocess ended (no end: interrupted, or
// running while its rfhandoff lives); full adds its pid.
func outcome(start exec.Entry, ended map[string]exec.Entry, full bool) string {
	end, ok := ended[start.ID]
	if !ok {
		if localfile.PIDAlive(start.Rfhandoff) {
			return "running"
		}
		return "interrupted"
	}
	var s string
	switch {
	case end.Signal != "":
		s = "killed by " + end.Signal
	case end.ExitCode != nil:
		s = fmt.Sprintf("exit %d", *end.ExitCode)
	default:
		s = "ended"
	}
	if end.DurationMS != nil {
		s += fmt.Sprintf(" %dms", *end.DurationMS)
	}
	if full && end.Pid > 0 {
		s += fmt.Sprintf(" pid %d", end.Pid)
	}
	if end.Verified != "" {
		s += " [signature: " + end.Verified + "]"
	}
	return s
}

// delivery describes a notification sent over HTTP (PROTOCOL#notifications).
func delivery(e exec.Entry) string {
	s := fmt.Sprintf("NOTIFY %s -> %s %s: %s", e.Notification, e.Receiver, e.Host, e.Status)
	if e.DurationMS != nil {
		s += fmt.Sprintf(" %dms", *e.DurationMS)
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (%d attempts)", e.Attempts)
	}
	if e.Error != "" {
		s += " (" + e.Error + ")"
	}
	return s
}

// decision describes a decision line (PROTOCOL#audit-log); digests and
// commits shortened to 12 hex digits unless full.
func decision(e exec.Entry, full bool) string {
	short := func(s string) string {
		if !full && len(s) > 12 {
			return s[:12]
		}
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DECISION %s", e.Kind)
	add := func(key, v string) {
		if v != "" {
			fmt.Fprintf(&b, " %s=%s", key, v)
		}
	}
	add("task", e.TaskID)
	add("level", e.Level)
	add("task_sha256", short(e.TaskSHA256))
	add("task_commit", short(e.TaskCommit))
	add("result_commit", short(e.ResultCommit))
	add("result_sha256", short(e.ResultSHA256))
	add("nodes", strings.Join(e.Nodes, ","))
	add("record", e.Record)
	add("record_sha256", short(e.RecordSHA256))
	if e.ExpiresAt != nil {
		add("expires", e.ExpiresAt.Format(time.RFC3339))
	}
	if e.TriesLeft != nil {
		add("tries_left", fmt.Sprint(*e.TriesLeft))
	}
	add("check", e.Check)
	add("verdict", e.Verdict)
	add("action", e.Action)
	if e.RFTX != nil {
		add("rf_tx", fmt.Sprint(*e.RFTX))
	}
	if e.ExitCode != nil {
		add("exit", fmt.Sprint(*e.ExitCode))
	}
	add("signal", e.Signal)
	add("outcome", e.Outcome)
	if e.Simulated {
		add("simulated", "true")
	}
	if e.Command != "" {
		fmt.Fprintf(&b, " [%s]", e.Command)
	}
	if e.Reason != "" {
		fmt.Fprintf(&b, ": %s", e.Reason)
	}
	if e.Error != "" {
		fmt.Fprintf(&b, " (error: %s)", e.Error)
	}
	return b.String()
}
