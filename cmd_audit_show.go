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
)

// AuditShowCmd prints the audit log: one line per subprocess, a start
// without an end reading as interrupted (or running, if its rfhandoff
// lives). Every line is escaped (hiddentext): the log holds what programs
// and notification receivers answered.
type AuditShowCmd struct {
	JSON bool `help:"Print the raw JSON lines."`
	Tail int  `help:"Only the last N lines of the log." placeholder:"N"`
}

func (c *AuditShowCmd) Run(app *App) error {
	path := app.Local(app.Policy.Audit.Path)
	entries, err := exec.ReadAuditTail(path, c.Tail)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no audit log at %s: nothing has run here yet, or the log was removed", path)
	}
	if err != nil {
		return err
	}
	// What the log holds came from programs, receivers and whoever could
	// write the file: it reaches the terminal escaped (PROTOCOL §9, §16).
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
		var line string
		switch e.Event {
		case exec.EventStart:
			line = fmt.Sprintf("%s  #%d  %-3s  %s  %s", e.Time.Format(time.RFC3339), e.Seq, e.Role, outcome(e, ended), strings.Join(e.Argv, " "))
		case exec.EventRefused:
			line = fmt.Sprintf("%s  #%d  %-3s  REFUSED (%s)  %s", e.Time.Format(time.RFC3339), e.Seq, e.Role, e.Reason, strings.Join(e.Argv, " "))
		case exec.EventDelivery:
			line = fmt.Sprintf("%s  #%d  %-3s  %s", e.Time.Format(time.RFC3339), e.Seq, e.Role, delivery(e))
		case exec.EventEnd:
			continue // printed with its start
		default:
			line = "?  unreadable line: " + e.Error
		}
		fmt.Fprintln(app.Stdout, hiddentext.SanitizeLine(line))
	}
	return nil
}

func outcome(start exec.Entry, ended map[string]exec.Entry) string {
	end, ok := ended[start.ID]
	if !ok {
		if exec.PIDAlive(start.Rfhandoff) {
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
	if end.Pid > 0 {
		s += fmt.Sprintf(" pid %d", end.Pid)
	}
	if end.Verified != "" {
		s += " [signature: " + end.Verified + "]"
	}
	return s
}

// delivery describes a notification sent over HTTP (PROTOCOL §21).
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
