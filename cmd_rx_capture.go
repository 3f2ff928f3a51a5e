package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"

	"golang.org/x/term"

	"rfhandoff/capture"
	"rfhandoff/exec"
	"rfhandoff/notify"
	"rfhandoff/result"
)

// RxCaptureCmd is the capture executor (PROTOCOL#capture).
type RxCaptureCmd struct {
	TaskID string `arg:"" optional:"" name:"TASK_ID" help:"The task to capture for; it must be the approved current task (default: the current task)."`
}

func (c *RxCaptureCmd) Run(app *App) error {
	defer outliveTerminal(app.Logger)()
	pub, err := app.work(exec.RoleCapture)
	if err != nil {
		return err
	}
	// Before anything is published (a recovered COMPLETE, READY): every
	// time in a result is this clock's (PROTOCOL#capture).
	if err := requireClock(app.Ctx, app, pub.Runner, "rx capture (publishing READY and COMPLETE)"); err != nil {
		return err
	}
	n, err := app.Notifier(notify.SideRX)
	if err != nil {
		return err
	}
	deps := capture.Deps{
		Notify:   n,
		Git:      pub.Git,
		Runner:   pub.Runner,
		Policy:   app.Policy,
		Audit:    pub.Audit,
		Logger:   app.Logger,
		Progress: app.Stderr,
		Terminal: isTerminal(app.Stderr),
		Author:   operatorName(),
		// A killed capture gets its COMPLETE first; one that cannot is the
		// error: no new capture starts.
		Recovered: func(rec *capture.Recovered) { printRecovered(app.Stdout, rec) },
	}
	rep, err := capture.Run(app.Ctx, deps, capture.Options{TaskID: c.TaskID})
	if rep != nil && (rep.ReadyCommit != "" || rep.CompleteCommit != "") {
		printCaptureReport(app.Stdout, rep)
	}
	if errors.Is(err, capture.ErrInterrupted) {
		return exitCode(130, err)
	}
	return err
}

func printCaptureReport(w io.Writer, r *capture.Report) {
	fmt.Fprintf(w, "task:      %s\n", r.TaskID)
	if (r.Ready != nil && r.Ready.Simulated) || (r.Complete != nil && r.Complete.Simulated) {
		fmt.Fprintf(w, "SIMULATED: rfhandoff's HackRF simulator captured, no radio ([tools] allow_simulator = true)\n")
	}
	if r.ReadyCommit != "" {
		fmt.Fprintf(w, "READY:     %s\n", r.ReadyCommit)
	}
	if r.CompleteCommit != "" {
		fmt.Fprintf(w, "COMPLETE:  %s\n", r.CompleteCommit)
	}
	if c := r.Complete; c != nil && c.CaptureSHA256 != nil {
		printCaptured(w, c)
		fmt.Fprintf(w, "clock:     CLKIN after %s, common_clock_verified %v\n", *c.ClkinAfter, c.CommonClockVerified)
		fmt.Fprintf(w, "rf_tx_observed: %s\n", *c.RFTXObserved)
	}
	printFiles(w, r.DataPath, r.MetaPath, r.PNGPath)
	if r.Outcome != "" {
		fmt.Fprintln(w, r.Outcome)
	}
}

func printRecovered(w io.Writer, rec *capture.Recovered) {
	if rec == nil {
		return
	}
	how := "published"
	if rec.NoOp {
		how = "already on the result branch"
	}
	fmt.Fprintf(w, "recovered: the capture of %s recorded in progress (its rx capture, pid %d, was killed or could not publish COMPLETE)\n",
		rec.Record.TaskID, rec.Record.RfhandoffPID)
	fmt.Fprintf(w, "COMPLETE:  %s (%s)\n", rec.Commit, how)
	printCaptured(w, rec.Result)
	printFiles(w, rec.Record.DataPath, rec.MetaPath, rec.PNGPath)
	fmt.Fprintf(w, "%s; capture_in_progress cleared.\n", rec.Tool)
}

func printCaptured(w io.Writer, r *result.Result) {
	fmt.Fprintf(w, "size:      %d bytes, %.2f s of signal, exit status %d\n", *r.CaptureSizeBytes, *r.CaptureDurationS, *r.CaptureExitCode)
	fmt.Fprintf(w, "sha256:    %s\n", *r.CaptureSHA256)
}

func printFiles(w io.Writer, data, meta, png string) {
	fmt.Fprintf(w, "data:      %s\n", data)
	if meta != "" {
		fmt.Fprintf(w, "sigmf:     %s\n", meta)
	}
	if png != "" {
		fmt.Fprintf(w, "quicklook: %s\n", png)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// operatorName is SigMF's core:author: the local user, if known.
func operatorName() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
