package txwatch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/gate/txgate"
	"rfhandoff/notify"
	"rfhandoff/prompt"
	"rfhandoff/result"
	"rfhandoff/task"
)

// DescribeTX says what tx execute would do, for the operator.
func DescribeTX(p TXParams) string {
	s := fmt.Sprintf("action %s: %d Hz, %d samples/s, TX VGA %d dB, amp %v, %d s",
		p.Action, p.FrequencyHz, p.SampleRateHz, p.TXVGAGainDB, p.Amp, p.DurationS)
	if p.Action == config.TXActionHackRFTransfer {
		s += ", from " + p.IQFile
	}
	return s
}

// authorize offers the READYs vs of cur, asks for the phrase once, then
// re-checks them all before writing the one record that binds them. Only
// a cancelled ctx is returned.
func (w *Watcher) authorize(ctx context.Context, cur *task.Task, vs []*nodeView) error {
	deadline, first := w.nodesUntil(cur, vs, 0)
	params := ParamsOf(w.Policy)
	shown := bindingsOf(vs)
	o := offerOf(cur.ID, shown)
	var simulated []string
	for _, v := range vs {
		if v.r.Simulated {
			simulated = append(simulated, v.node.Name)
		}
	}
	o.base.Simulated = len(simulated) > 0
	// The offer's line first: an offer that cannot be on record is not made.
	d := o.line(exec.DecisionOffer, "")
	d.ExpiresAt = deadline
	if err := Decide(w.Audit, d); err != nil {
		w.rep.printf("%s is not offered, nothing authorized: %v", o.what, err)
		return nil
	}
	w.showOffer(cur, vs, first, simulated, deadline, params)
	// The nodes' offer is withdrawn when a branch moves.
	what, ask, why, stop := "", ctx, func() string { return "" }, func() {}
	if first.node.Name != "" {
		what = fmt.Sprintf(" for %d nodes", len(vs))
		ask, why, stop = w.watchOffer(ctx, vs)
	}
	ok := w.askPhrase(ask, cur, deadline, o, why)
	stop()
	if !ok {
		return ctx.Err()
	}
	rec, err := w.recheck(ctx, cur, shown, params)
	return w.record(ctx, o, rec, err, what)
}

// showOffer prints the offer: one result, or the table of every node's READY.
func (w *Watcher) showOffer(cur *task.Task, vs []*nodeView, first *nodeView, simulated []string, deadline time.Time, params TXParams) {
	scheduled := !cur.Capture.StartAt.IsZero()
	if first.node.Name == "" {
		r, signed, schedule := first.r, "", ""
		if first.signer != nil {
			signed = "signed by " + first.signer.String() + " (good signature, listed in trust.result_signers)\n"
		}
		if scheduled {
			sync, bound := alignmentCells(r.Alignment)
			schedule = fmt.Sprintf("START_AT %s: %s, bound %s, aligned\n", cur.Capture.StartAt.UTC().Format(time.RFC3339), sync, bound)
		}
		// Text from files (a signer's principal) is an argument, never part of the format.
		w.rep.printf("READY result for task %s awaiting authorization\n%s"+
			"result branch commit %s, RX_RESULT.json sha256 %s\n%s%s"+
			"capture started %s, ends %s (%s left); %d Hz at %d samples/s\n"+
			"authorizing allows `rfhandoff tx execute` to run once: %s\n"+
			"the prompt expires at %s",
			cur.ID, simulatedLine(r.Simulated), first.commit, first.snap.Digest, signed, schedule,
			r.CaptureStartedAt.Format(time.RFC3339), txgate.CaptureEnd(r).Format(time.RFC3339),
			txgate.Remaining(r, w.now()).Truncate(time.Second), r.FrequencyHz, r.SampleRateHz,
			DescribeTX(params), deadline.Local().Format(time.RFC3339))
		return
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	head := "node\tsigner\tcommit\tpublished\tstarted\ttime left\tcommon clock"
	if scheduled {
		head += "\tsync\tbound"
	}
	fmt.Fprintln(tw, head)
	now := w.now()
	for _, v := range vs {
		signer := "-"
		if v.signer != nil {
			signer = v.signer.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%v", v.node.Name, signer, short(v.commit),
			v.r.PublishedAt.Format(time.RFC3339), v.r.CaptureStartedAt.Format(time.RFC3339),
			txgate.Remaining(v.r, now).Truncate(time.Second), v.r.CommonClockVerified)
		if scheduled {
			sync, bound := alignmentCells(v.r.Alignment)
			fmt.Fprintf(tw, "\t%s\t%s", sync, bound)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	sim := ""
	if len(simulated) > 0 {
		sim = simulatedLine(true) + "simulated receivers: " + strings.Join(simulated, ", ") + "\n"
	}
	w.rep.printf("READY results from every node of task %s awaiting authorization (one phrase for all %d)\n%s%s"+
		"the window is the intersection: it closes with %s's; %d Hz at %d samples/s\n"+
		"authorizing allows `rfhandoff tx execute` to run once: %s\n"+
		"the prompt expires at %s",
		cur.ID, len(vs), sim, b.String(), first.node.Name, vs[0].r.FrequencyHz, vs[0].r.SampleRateHz,
		DescribeTX(params), deadline.Local().Format(time.RFC3339))
}

// simulatedLine is the offer's line about a simulated receiver ("" for a HackRF).
func simulatedLine(simulated bool) string {
	if !simulated {
		return ""
	}
	return "simulated receiver: rfhandoff's HackRF simulator captured this (no radio listens); offered because " +
		config.SimulatorKey + " = true\n"
}

// ended records why an offer ended without a record and reports it; it
// returns false.
func (w *Watcher) ended(o offer, reason, format string, args ...any) bool {
	if err := Decide(w.Audit, o.line(exec.DecisionOfferEnded, reason)); err != nil {
		w.rep.printf("warning: %v", err)
	}
	if format != "" {
		w.rep.printf(format, args...)
	}
	return false
}

// record writes the record after the re-check passed (what: " for 3 nodes").
func (w *Watcher) record(ctx context.Context, o offer, rec Record, recheckErr error, what string) error {
	w.resolved = false // the re-check fetched the tracking refs itself
	if ctx.Err() != nil {
		w.ended(o, "stopped during the re-check", "")
		return ctx.Err()
	}
	if recheckErr != nil {
		w.ended(o, "blocked after the phrase: "+recheckErr.Error(), "BLOCKED after the phrase, nothing authorized: %v", recheckErr)
		return nil
	}
	// The record's line (with the SHA-256 of the bytes Create will write)
	// before the record: no line, no record.
	data, err := encodeRecord(rec)
	if err == nil {
		d := o.line(exec.DecisionRecordWritten, "")
		d.Record, d.RecordSHA256, d.ExpiresAt = RecordName(rec.TaskID, rec.ResultSHA256), result.SHA256(data), rec.ExpiresAt
		err = Decide(w.Audit, d)
	}
	if err != nil {
		w.rep.printf("could not record the authorization (%v): nothing authorized", err)
		return nil
	}
	path, err := w.store.Create(rec)
	if err != nil {
		w.ended(o, "the record could not be written: "+err.Error(), "could not write the authorization record (%v): nothing authorized", err)
		return nil
	}
	now := w.now()
	// tx execute names the record unless it is the one unused record.
	next, name := cmp.Or(w.ExecuteCommand, "rfhandoff tx execute"), filepath.Base(path)
	if only, err := w.store.Pick(now); err != nil || only != name {
		next += " " + name
	}
	w.rep.printf("AUTHORIZED: record %s%s (expires %s, %s from now; the capture ends %s)\nrun next:\n  %s",
		path, what, rec.ExpiresAt.Local().Format(time.RFC3339), rec.ExpiresAt.Sub(now).Truncate(time.Second),
		rec.CaptureEndsAt.Local().Format(time.RFC3339), next)
	return nil
}

// askPhrase asks for the phrase until deadline, PhraseTries in all; every
// phrase typed and every end is on record. withdrawn says why ctx was
// cancelled ("" when it was not).
func (w *Watcher) askPhrase(ctx context.Context, cur *task.Task, deadline time.Time, o offer, withdrawn func() string) bool {
	what := o.what
	open := w.OpenAsker
	if open == nil {
		open = OpenTerminal
	}
	asker, err := open()
	if err != nil {
		if errors.Is(err, prompt.ErrNoTerminal) {
			return w.ended(o, "no terminal",
				"%s awaits authorization, but there is no terminal here (%v): nothing authorized; run tx watch in a terminal", what, err)
		}
		return w.ended(o, "the terminal could not be opened: "+err.Error(), "cannot ask for the phrase (%v): nothing authorized", err)
	}
	defer asker.Close()
	w.Notify.Notify(notify.AuthorizationNeeded(notify.FromTask(cur), int(deadline.Sub(w.now()).Seconds())))
	for try := 1; ; try++ {
		ok, err := asker.Phrase(ctx, gate.TXPhrase, deadline)
		switch {
		case ctx.Err() != nil && withdrawn() != "":
			return w.ended(o, "withdrawn at the prompt: "+withdrawn(),
				"the offer of %s was withdrawn at the prompt (%s): nothing authorized", what, withdrawn())
		case ctx.Err() != nil:
			return w.ended(o, "stopped at the prompt", "stopped at the prompt: nothing authorized")
		case errors.Is(err, prompt.ErrExpired):
			return w.ended(o, "the prompt expired", "the prompt for %s expired: nothing authorized", what)
		case err != nil:
			return w.ended(o, "the prompt failed: "+err.Error(), "the prompt failed (%v): nothing authorized", err)
		case !ok:
			left := PhraseTries - try
			d := o.line(exec.DecisionPhraseRefused, "wrong phrase")
			d.TriesLeft = &left
			if err := Decide(w.Audit, d); err != nil {
				w.rep.printf("wrong phrase for %s, and %v: nothing authorized", what, err)
				return false
			}
			if left == 0 {
				return w.ended(o, fmt.Sprintf("wrong phrase %d times", PhraseTries),
					"wrong phrase for %s, %d times: nothing authorized, and it is not offered again", what, PhraseTries)
			}
			w.rep.printf("wrong phrase for %s: %d of %d tries left, asking again (the prompt expires at %s)",
				what, left, PhraseTries, deadline.Local().Format("15:04:05"))
			continue
		}
		if err := Decide(w.Audit, o.line(exec.DecisionPhraseAccepted, "")); err != nil {
			w.rep.printf("the phrase for %s was typed, but %v: nothing authorized", what, err)
			return false
		}
		return true
	}
}

func OrNobody(fp string) string {
	if fp == "" {
		return "nobody (no signature required)"
	}
	return "key " + fp
}

// readyProblems joins the reasons a READY is refused into one flat list.
func readyProblems(checks ...error) error {
	var all []error
	for _, err := range checks {
		all = append(all, errlist.Flatten(err)...) // nil stays nil, dropped by List
	}
	return errlist.List(all...)
}
