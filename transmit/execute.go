package transmit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/gate/txgate"
	"rfhandoff/gitcli"
	"rfhandoff/hackrfcli"
	"rfhandoff/mirror"
	"rfhandoff/notify"
	"rfhandoff/prompt"
	"rfhandoff/resultfetch"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/txwatch"
)

// Executor is tx execute (PROTOCOL#main-pc steps 1–5).
type Executor struct {
	Git       *gitcli.Client // in the MAIN checkout
	Runner    exec.Runner    // built for exec.RoleTransmit: the only role that may run hackrf_transfer -t
	Policy    config.Policy
	Out       io.Writer
	Now       func() time.Time              // nil: time.Now
	OpenAsker func() (txwatch.Asker, error) // nil: txwatch.OpenTerminal
	Notify    *notify.Dispatcher            // tx_executed, never for a refusal (PROTOCOL#notifications)
	Audit     *exec.AuditLog                // the decision lines (PROTOCOL#audit-log); nil records none
}

const (
	StepRecord  = "record"       // the record cannot be read or is malformed
	StepQuick   = "quick checks" // expired, used, policy, parameters
	StepPhrase  = "phrase"
	StepRecheck = "re-check"
	StepUse     = "mark used"
)

// refused is an execution refused before anything was started.
func refused(step string, err error) error { return fmt.Errorf("refused at %s: %w", step, err) }

func actionFailed(outcomePath string, err error) error {
	return fmt.Errorf("the TX action failed (outcome in %s): %w", outcomePath, err)
}

func (x *Executor) now() time.Time {
	if x.Now != nil {
		return x.Now()
	}
	return time.Now()
}

func (x *Executor) say(format string, args ...any) {
	if x.Out != nil {
		fmt.Fprintf(x.Out, "tx execute: "+format+"\n", args...)
	}
}

// Execute runs the record named by arg ("" for the one unused record) and
// returns the outcome and where it was written. An error with no outcome
// path means nothing was started.
func (x *Executor) Execute(ctx context.Context, arg string) (txwatch.Outcome, string, error) {
	base := exec.Decision{Command: "tx execute"}
	// A pass that cannot be recorded stops here (no line, no next step).
	check := func(step string, err error) error {
		d := base
		d.Kind, d.Check, d.Verdict = exec.DecisionExecuteCheck, step, exec.VerdictPassed
		if err != nil {
			d.Verdict, d.Reason = exec.VerdictRefused, err.Error()
		}
		if derr := txwatch.Decide(x.Audit, d); derr != nil && err == nil {
			return derr
		}
		return err
	}
	store, err := txwatch.StoreOf(x.Policy)
	if err != nil {
		return txwatch.Outcome{}, "", refused(StepRecord, check(StepRecord, err))
	}
	// (1) Quick checks that fail fast.
	var name string
	if arg == "" {
		name, err = store.Pick(x.now())
	} else {
		name, err = store.Resolve(arg)
	}
	if err != nil {
		return txwatch.Outcome{}, "", refused(StepRecord, check(StepRecord, err))
	}
	base.Record = name
	rec, sum, err := store.ReadRecordSum(name)
	if err != nil {
		return txwatch.Outcome{}, "", refused(StepRecord, check(StepRecord, err))
	}
	base.TaskID, base.ResultCommit, base.ResultSHA256, base.RecordSHA256 = rec.TaskID, rec.ResultCommit, rec.ResultSHA256, sum
	base.Nodes = txwatch.NodeNames(rec.Nodes)
	if err := check(StepRecord, nil); err != nil {
		return txwatch.Outcome{}, "", refused(StepRecord, err)
	}
	if arg == "" {
		x.say("the one unused record: %s", name)
	}
	txp, err := x.quickChecks(store, name, sum, rec)
	if err := check(StepQuick, err); err != nil {
		return txwatch.Outcome{}, "", refused(StepQuick, err)
	}

	// (2) The exact phrase at the terminal.
	bound := fmt.Sprintf("result commit %s, sha256 %s, signed by %s", rec.ResultCommit, rec.ResultSHA256, txwatch.OrNobody(rec.Nodes[0].ResultSigner))
	if len(txwatch.NodeNames(rec.Nodes)) > 0 {
		bound = fmt.Sprintf("%d nodes (set digest %s):", len(rec.Nodes), rec.ResultSHA256)
		for _, n := range rec.Nodes {
			bound += fmt.Sprintf("\n  node %s: branch %s, result commit %s, sha256 %s, signed by %s", n.Node, n.ResultBranch, n.ResultCommit, n.ResultSHA256, txwatch.OrNobody(n.ResultSigner))
		}
	}
	x.say("record %s: task %s, %s\n  %s\n  the record expires %s",
		name, rec.TaskID, bound, txwatch.DescribeTX(rec.TX), rec.ExpiresAt.Local().Format(time.RFC3339))
	perr := x.askPhrase(ctx, rec)
	d := base
	d.Kind = exec.DecisionPhraseAccepted
	if perr != nil {
		d.Kind, d.Reason = exec.DecisionPhraseRefused, perr.Error()
	}
	if err := txwatch.Decide(x.Audit, d); err != nil && perr == nil {
		perr = err
	}
	if perr != nil {
		return txwatch.Outcome{}, "", refused(StepPhrase, perr)
	}

	// (3) Immediately before any hardware: fetch again, compare, re-check.
	cur, err := x.recheck(ctx, store, name, sum, rec)
	if err != nil && ctx.Err() == nil {
		err = fmt.Errorf("%w\nwhat now: %s", err, txwatch.WhatNow(rec, x.now()))
	}
	if err := check(StepRecheck, err); err != nil {
		return txwatch.Outcome{}, "", refused(StepRecheck, err)
	}

	// (4) Consume the record: exactly one caller wins, under the list's lock.
	if err := check(StepUse, store.MarkUsed(name, sum, x.now())); err != nil {
		return txwatch.Outcome{}, "", refused(StepUse, err)
	}
	x.say("record %s marked used", name)

	// (5) The action, on record before it starts: rather lost than run unrecorded.
	start := base
	start.Kind, start.Action = exec.DecisionActionStarted, x.Policy.TX.Action
	if err := txwatch.Decide(x.Audit, start); err != nil {
		return txwatch.Outcome{}, "", fmt.Errorf("the record is used, but the action was not started: %w", err)
	}
	o, path, err := x.run(ctx, store, name, rec, txp)
	end := base
	end.Kind, end.Action, end.Outcome = exec.DecisionActionOutcome, o.Action, txwatch.OutcomeName(name)
	rftx := o.RFTX
	end.RFTX, end.ExitCode, end.Signal, end.Error = &rftx, o.ExitCode, o.Signal, o.Error
	if err != nil && o.Error == "" {
		end.Error = err.Error()
	}
	if derr := txwatch.Decide(x.Audit, end); derr != nil {
		x.say("warning: %v", derr)
	}
	if !o.StartedAt.IsZero() {
		code := -1 // no exit code: killed, or never started
		if o.ExitCode != nil {
			code = *o.ExitCode
		}
		x.Notify.Notify(notify.TXExecuted(notify.FromTask(cur), o.Action, o.RFTX, code))
	}
	return o, path, err
}

// quickChecks is step 1 after the record parsed; it returns the
// hackrf_transfer parameters when that is the action.
func (x *Executor) quickChecks(store txwatch.Store, name, sum string, rec txwatch.Record) (*hackrfcli.TxParams, error) {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	now := x.now()
	if !now.Before(rec.ExpiresAt) {
		add("the record expired at %s", rec.ExpiresAt.Format(time.RFC3339Nano))
	}
	errs = append(errs, store.Usable(name, sum))
	if _, err := os.Lstat(store.Path(txwatch.OutcomeName(name))); !errors.Is(err, os.ErrNotExist) {
		add("an outcome for this record already exists (%s)", store.Path(txwatch.OutcomeName(name)))
	}
	if st, err := state.LoadTX(x.Policy.StatePath()); err != nil {
		add("cannot tell whether task %s is over: %w", rec.TaskID, err)
	} else {
		errs = append(errs, resultfetch.TaskOver(&st, rec.TaskID)) // PROTOCOL#trust
	}
	spent := errlist.List(errs...) != nil // the record itself can no longer be used
	pol := x.Policy
	for _, b := range rec.Nodes {
		n, ok := txwatch.PolicyNode(pol, b.Node)
		switch {
		case b.Node == "" && b.ResultBranch != pol.Repo.ResultBranch:
			add("the record is for result branch %q, the policy's is %q", b.ResultBranch, pol.Repo.ResultBranch)
		case b.Node != "" && (!ok || n.ResultBranch != b.ResultBranch):
			add("the record is for node %s on result branch %q, which the policy's [[nodes]] does not list", b.Node, b.ResultBranch)
		}
	}
	if pol.TX.Action != config.TXActionFake && !pol.TX.Enabled {
		add("[tx] enabled is false: action %q is refused (only %q runs while TX is disabled)", pol.TX.Action, config.TXActionFake)
	}
	errs = append(errs, errlist.Flatten(txgate.CheckTXParams(pol))...)
	errs = append(errs, errlist.Flatten(pol.ValidateMAIN())...)
	for _, d := range rec.TX.Diff(txwatch.ParamsOf(pol)) {
		add("the [tx] parameters changed since the authorization: %s", d)
	}
	var txp *hackrfcli.TxParams
	if pol.TX.Action == config.TXActionHackRFTransfer && pol.TX.IQFile != "" {
		p, err := x.transmitParams()
		errs = append(errs, errlist.Flatten(err)...)
		txp = &p
	}
	if err := errlist.List(errs...); err != nil {
		if spent {
			return nil, fmt.Errorf("%w\nwhat now: %s", err, txwatch.WhatNow(rec, now))
		}
		return nil, fmt.Errorf("%w\nwhat now: %s", err, txwatch.WhatNowSetup(rec, now))
	}
	return txp, nil
}

// transmitParams builds and checks the bounded transmission (-n is
// sample_rate_hz × duration_s).
func (x *Executor) transmitParams() (hackrfcli.TxParams, error) {
	t := x.Policy.TX
	iq, err := filepath.Abs(x.Policy.IQFilePath())
	if err != nil {
		return hackrfcli.TxParams{}, err
	}
	p := hackrfcli.TxParams{
		IQPath: iq, FrequencyHz: t.FrequencyHz, SampleRateHz: t.SampleRateHz,
		TXVGAGainDB: t.TXVGAGainDB, Amp: t.Amp, NumSamples: t.SampleRateHz * int64(t.DurationS),
	}
	var errs []error
	if st, err := os.Stat(iq); err != nil {
		errs = append(errs, fmt.Errorf("tx.iq_file: %w", err))
	} else if !st.Mode().IsRegular() || st.Size() == 0 {
		errs = append(errs, fmt.Errorf("tx.iq_file %s must be a non-empty regular file", iq))
	}
	errs = append(errs, errlist.Flatten(p.Validate())...)
	return p, errlist.List(errs...)
}

func (x *Executor) askPhrase(ctx context.Context, rec txwatch.Record) error {
	open := x.OpenAsker
	if open == nil {
		open = txwatch.OpenTerminal
	}
	asker, err := open()
	if err != nil {
		if errors.Is(err, prompt.ErrNoTerminal) {
			return fmt.Errorf("the phrase %q must be typed at a terminal: %w", gate.TXPhrase, err)
		}
		return err
	}
	defer asker.Close()
	ok, err := asker.Phrase(ctx, gate.TXPhrase, rec.ExpiresAt)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("wrong phrase: nothing started, the record is still unused")
	}
	return nil
}

// recheck is step 3 (txwatch.CheckRecord); it returns the current task.
func (x *Executor) recheck(ctx context.Context, store txwatch.Store, name, sum string, rec txwatch.Record) (*task.Task, error) {
	m, err := mirror.ForTX(ctx, x.Git, x.Policy, nil)
	if err != nil {
		return nil, fmt.Errorf("re-fetching the result branch: %w", err)
	}
	var errs []error
	st, err := state.LoadTX(x.Policy.StatePath())
	if err != nil {
		errs = append(errs, fmt.Errorf("cannot tell whether task %s is over: %w", rec.TaskID, err))
	}
	now := x.now()
	cur, tips, err := txwatch.CheckRecord(ctx, resultfetch.Source{Git: m, Policy: x.Policy}, rec, now, &st)
	errs = append(errs, errlist.Flatten(err)...)
	if err := txwatch.WriteFetchHint(x.Policy, tips); err != nil {
		x.say("warning: %v (a running tx watch notices the fetched commits at its next resync)", err)
	}
	if !now.Before(rec.ExpiresAt) {
		errs = append(errs, fmt.Errorf("the record expired at %s", rec.ExpiresAt.Format(time.RFC3339Nano)))
	}
	errs = append(errs, store.Usable(name, sum))
	if err := errlist.List(errs...); err != nil {
		return nil, err
	}
	return cur, nil
}
