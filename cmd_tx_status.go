package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"rfhandoff/txwatch"
)

// TxStatusCmd prints the TX state and every authorization record
// (PROTOCOL#command-line), changing nothing (no git, the lock only probed).
type TxStatusCmd struct {
	JSON bool `name:"json" help:"Print JSON."`
}

// printJSON is the status commands' --json.
func printJSON(app *App, v any) error {
	enc := json.NewEncoder(app.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printWatcher is the status commands' watcher line: held by pid, or a
// gone watcher's running flag for the next of clearedBy to clear.
func printWatcher(w io.Writer, label string, held, stale bool, pid, stalePID int, clearedBy string) {
	switch {
	case held:
		fmt.Fprintf(w, "%srunning (process %d)\n", label, pid)
	case stale:
		fmt.Fprintf(w, "%snot running (stale running flag of process %d; cleared by the next %s)\n", label, stalePID, clearedBy)
	default:
		fmt.Fprintf(w, "%snot running\n", label)
	}
}

func (c *TxStatusCmd) Run(app *App) error {
	if err := app.Policy.InCheckout(); err != nil {
		return err
	}
	s, err := txwatch.ReadStatus(app.Policy, time.Now())
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(app, s)
	}
	w := app.Stdout
	printWatcher(w, "watcher:        ", s.LockHeld, s.StaleRunning, s.WatcherPID, s.WatcherPID, "tx watch")
	fmt.Fprintf(w, "results shown:  %d (last result commit %s)\n", s.ShownResults, cmp.Or(s.LastResultCommit, "-"))
	ids := slices.Sorted(maps.Keys(s.CompletedTasks))
	fmt.Fprintf(w, "tasks over:     %d (a CAPTURE_COMPLETE was seen: no READY for them is offered or executed)\n", len(ids))
	for _, id := range ids {
		fmt.Fprintf(w, "  %s  at result commit %.12s\n", id, s.CompletedTasks[id])
	}
	if len(s.TasksOverUnread) > 0 {
		unread := slices.Sorted(maps.Keys(s.TasksOverUnread))
		fmt.Fprintf(w, "tasks over unread: %d (a look found too many results to read them all: a CAPTURE_COMPLETE could not be ruled out)\n", len(unread))
		for _, id := range unread {
			fmt.Fprintf(w, "  %s  at the look at result commit %.12s\n", id, s.TasksOverUnread[id])
		}
	}
	if ns := s.Nodes; ns != nil {
		fmt.Fprintf(w, "nodes:          task %s, as tx watch saw them at %s\n", ns.TaskID, ns.SeenAt.Local().Format(time.RFC3339))
		for _, n := range ns.Nodes {
			fmt.Fprintf(w, "  %-12s %-16s branch %s, commit %.12s", n.Node, n.State, n.Branch, n.Commit)
			if n.Detail != "" {
				detail, _, _ := strings.Cut(n.Detail, "\n")
				fmt.Fprintf(w, " (%s)", detail)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "records:        %d in %s\n", len(s.Records), s.AuthorizationDir)
	for _, r := range s.Records {
		fmt.Fprintf(w, "  %s  %s", r.Name, r.Status)
		if r.Record != nil {
			fmt.Fprintf(w, "  task %s, result %.12s, expires %s, action %s",
				r.Record.TaskID, r.Record.ResultCommit, r.Record.ExpiresAt.Local().Format(time.RFC3339), r.Record.TX.Action)
		}
		fmt.Fprintln(w)
		if o := r.Outcome; o != nil {
			code := "-"
			if o.ExitCode != nil {
				code = fmt.Sprint(*o.ExitCode)
			}
			ended := "still running or interrupted"
			if o.EndedAt != nil {
				ended = o.EndedAt.Local().Format(time.RFC3339)
			}
			fmt.Fprintf(w, "      outcome: action %s, rf_tx_started %v, RF TX = %d, exit %s, started %s, ended %s\n",
				o.Action, o.RFTXStarted, o.RFTX, code, o.StartedAt.Local().Format(time.RFC3339), ended)
		}
		if r.Error != "" {
			fmt.Fprintf(w, "      problem: %s\n", r.Error)
		}
	}
	return nil
}
