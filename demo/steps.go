package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/gate/txgate"
	"rfhandoff/gitcli"
	"rfhandoff/prompt"
	"rfhandoff/result"
	"rfhandoff/sigmf"
)

// The phrase both TX prompts require (PROTOCOL#main-pc), and how --auto types it.
var (
	txPhrase     = gate.TXPhrase
	phraseAnswer = Answer{Prompt: "Type exactly: " + txPhrase, Reply: txPhrase}
)

type demoStep struct {
	name string // as a failure reports it
	run  func(ctx context.Context, n int) error
	// notify: the step's notifications (PROTOCOL#notifications) are shown after it.
	notify bool
}

func (d *runner) steps(ctx context.Context) error {
	defer d.showNotifications()
	steps := []demoStep{
		{"MAIN pushes the task", d.pushTask, false},
		{"RX rx check", d.check, true},
		{"RX rx approve", d.approve, false},
		{"RX rx capture, READY", d.capture, true},
		{"MAIN tx watch, authorization", d.watch, true},
		{"MAIN tx execute, fake TX", d.execute, true},
		{"RX capture ends, COMPLETE", d.complete, true},
	}
	if d.sb.multi() {
		steps = append(steps, demoStep{"MAIN tx watch, the collection", d.collect, true})
	}
	if d.sb.Sync != "" {
		steps = append(steps, demoStep{"proof by the signal", d.prove, false})
	}
	for i, s := range append(steps, demoStep{"summary", d.summary, false}) {
		if err := s.run(ctx, i+1); err != nil {
			if errors.Is(err, context.Canceled) {
				err = fmt.Errorf("interrupted (%w)", err)
			}
			return &stepError{Step: i + 1, Name: s.name, Err: err}
		}
		if s.notify {
			d.showNotifications()
		}
	}
	return nil
}

// on names the node in a line about it ("" on the single-node demo).
func on(n *rxNode) string {
	if n.Name == "" {
		return ""
	}
	return " on " + n.Name
}

func (d *runner) pushTask(ctx context.Context, step int) error {
	d.step(step, "MAIN writes a task (task new) and pushes it to the task branch")
	if d.sb.multi() {
		d.say("The MAIN PC asks the RX nodes for a bounded receive. task new fetches the task")
	} else {
		d.say("The MAIN PC asks the RX laptop for a bounded receive. task new fetches the task")
	}
	d.say("branch, sets EXPECTED_HEAD to its tip (%s), derives the level (YELLOW: it uses", short(d.sb.BaseCommit))
	d.say("hardware and pushes a result, but transmits nothing on the RX side), checks that")
	d.say("the TASK_ID was never used and validates the file with the RX side's own parser.")
	bodyFile := filepath.Join(d.sb.Root, "task-body.md")
	if err := os.WriteFile(bodyFile, []byte(taskBody(d.o.Timing, d.sb.multi())+syncBody(d.sb.Sync)), 0o644); err != nil {
		return err
	}
	if d.sb.multi() {
		d.say("RX_NODES names the %d receivers (%s): each approves and captures on its own, publishes", len(d.sb.nodes), d.nodeList(", "))
		d.say("on its own result branch, and MAIN asks for the phrase once, for all of them (PROTOCOL#several-nodes).")
	}
	spec := childSpec{Args: d.taskArgs(bodyFile)}
	if err := d.runWant(ctx, spec, time.Minute, 0, "task new exited %d, want 0 (the task file written)"); err != nil {
		return err
	}
	const rel = "docs/handoff/NEXT_RX_TASK.md"
	body, err := os.ReadFile(filepath.Join(d.sb.Main, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	for _, l := range strings.Split(strings.TrimRight(string(body), "\n"), "\n") {
		d.out.line("     ", l)
	}
	if d.sb.Sync != "" {
		if d.startAt, err = startAtOf(body); err != nil {
			return err
		}
		d.say("START_AT %s is %s from now: every node must have approved, and started rx capture,", d.startAt.Format(time.RFC3339), time.Until(d.startAt).Round(time.Second))
		d.say("at least sync.min_lead_s (%d s) before it, or it refuses the task (a missed START_AT needs a new TASK_ID).", syncMinLeadS)
	}
	d.say("task new never commits or pushes; the MAIN operator runs the git lines it printed.")
	// MAIN's own git calls go to MAIN's audit log, as its commands' do.
	pol := d.sb.mainPol
	r, err := d.sb.gitRunner(pol.AuditPath(), map[exec.Tool]string{exec.Git: pol.Tools.Git}, pol.Poll.GitTimeout.Duration)
	if err != nil {
		return err
	}
	// The RX side's trust.task_signers lists only MAIN's throw-away key.
	id, err := commitPush(ctx, &gitcli.Client{R: r, Dir: d.sb.Main, SigningKey: d.sb.MainKey}, "Task "+taskID, taskBranch, rel)
	if err != nil {
		return err
	}
	if d.sb.MainKey == "" {
		d.say("MAIN pushed the task to %s at commit %s (unsigned: ssh-keygen is not installed,", taskBranch, short(id))
		d.say("so this demo runs without [trust] signatures).")
		return nil
	}
	d.say("MAIN pushed the task to %s at commit %s, signed with MAIN's SSH key", taskBranch, short(id))
	d.say("(%s): the RX side accepts only tasks signed by a key in its", d.sb.MainKey+".pub")
	if d.sb.multi() {
		d.say("trust.task_signers, and MAIN each node's results only signed by that node's own key.")
		return nil
	}
	d.say("trust.task_signers, and MAIN only results signed by the RX laptop's key.")
	return nil
}

func (d *runner) check(ctx context.Context, step int) error {
	d.step(step, "RX checks the task branch (rx check, as cron would)")
	d.say("The RX laptop fetches only the task branch, reads the task from git (not the")
	d.say("working tree), validates every field and the EXPECTED_HEAD ancestry, and records")
	d.say("it as seen. Exit status 10 means: a valid task awaits approval.")
	for _, n := range d.sb.nodes {
		spec := childSpec{Node: n, Args: []string{"rx", "check"}}
		if err := d.runWant(ctx, spec, time.Minute, 10, "rx check%s exited %d, want 10 (a valid task awaits approval)", on(n)); err != nil {
			return err
		}
		d.say("rx check%s exited 10: task %s awaits approval.", on(n), taskID)
	}
	return nil
}

func (d *runner) approve(ctx context.Context, step int) error {
	d.step(step, "RX operator approves the task at the real prompt (rx approve)")
	d.say("The approval prompt shows the task and reads the answer from the controlling")
	d.say("terminal only; the approval is bound to the SHA-256 of the task's exact bytes.")
	if d.sb.multi() {
		d.say("Each node has its own operator and its own prompt: %s approve one after the other.", d.nodeList(", "))
	}
	for _, n := range d.sb.nodes {
		switch {
		case d.o.Auto:
			d.say("--auto types A at the prompt%s once it is shown (a YELLOW task needs nothing more).", on(n))
		case n.Name == "":
			d.say(">>> You are the RX operator: read the task, then type A and Enter to approve it.")
		default:
			d.say(">>> You are the operator of %s: read the task, then type A and Enter to approve it.", n.Name)
		}
		spec := d.prompted(childSpec{Node: n, Args: []string{"rx", "approve", taskID}}, Answer{Prompt: prompt.OneShotMenu, Reply: "A"})
		if err := d.runWant(ctx, spec, d.promptTimeout(), 0, "rx approve%s exited %d: the task was not approved", on(n)); err != nil {
			return err
		}
		if n.Name == "" {
			d.say("Approved: the RX laptop may now run exactly this task.")
		} else {
			d.say("Approved on %s: this node may now run exactly this task.", n.Name)
		}
	}
	return nil
}

// capture starts rx capture on every node, until READY is on each one's branch.
func (d *runner) capture(ctx context.Context, step int) error {
	d.step(step, "RX starts the capture (rx capture) and publishes READY")
	d.say("The capture executor checks the HackRF (the simulator here) and the common clock")
	d.say("(hackrf_clock -i: CLKIN detected), starts a bounded hackrf_transfer -r of %d s,", d.o.Timing.PlannedS)
	if d.sb.multi() {
		d.say("confirms the file grows, and pushes READY (RX_RESULT.json) to the node's own branch")
		d.say("(%s), signed with the node's key. All %d nodes capture at once.", d.nodeList(", "), len(d.sb.nodes))
	} else {
		d.say("confirms the file grows, and pushes READY (RX_RESULT.json) to %s.", resultBranch)
	}
	for _, n := range d.sb.nodes {
		spec := childSpec{Node: n, Args: []string{"rx", "capture", taskID}, Attach: attachPipes}
		if !d.o.Auto {
			log, err := os.Create(d.captureLog(n))
			if err != nil {
				return err
			}
			// A log, so it cannot scribble over the TX prompts on the terminal.
			spec.Output = log
			d.say("It runs in the background; its output goes to %s.", log.Name())
		}
		c, err := d.start(spec)
		if err != nil {
			return err
		}
		d.captures = append(d.captures, c)
	}
	d.readies = make([]*result.Result, len(d.sb.nodes))
	deadline := time.Now().Add(2 * time.Minute)
	if d.sb.Sync != "" {
		d.say("Each node waits for START_AT %s (%s from now): PPS arms hackrf_transfer -H", d.startAt.Format(time.RFC3339), time.Until(d.startAt).Round(time.Second))
		d.say("sync.pps_arm_margin_s before the edge; HOST_CLOCK starts it so that its first sample lands on START_AT")
		d.say("by the host clock corrected by chrony's offset. READY carries each node's alignment.")
		deadline = d.startAt.Add(2 * time.Minute)
	}
	for i, n := range d.sb.nodes {
		c := d.captures[i]
		err := until(ctx, deadline, "READY on "+n.Branch, func() (bool, error) {
			if c.done() {
				code, _ := c.wait(ctx)
				if !d.o.Auto {
					d.showTail(d.captureLog(n), 6)
				}
				return false, fmt.Errorf("rx capture%s exited %d before READY was published", on(n), code)
			}
			r, commit, err := d.remoteResult(ctx, n)
			if err != nil || r == nil || r.State != result.StateReady {
				return false, err
			}
			d.readies[i] = r
			d.say("READY is on %s at commit %s: capture started %s, %d s planned, CLKIN verified: %v.",
				n.Branch, short(commit), r.CaptureStartedAt.Local().Format("15:04:05"), r.PlannedDurationS, r.CommonClockVerified)
			return true, nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// captureLog is where the interactive demo sends n's capture output.
func (d *runner) captureLog(n *rxNode) string {
	return filepath.Join(d.sb.Root, n.Base+"-capture.log")
}

// nodeList joins the nodes' names with sep: "rx-a, rx-b, rx-c".
func (d *runner) nodeList(sep string) string {
	var names []string
	for _, n := range d.sb.nodes {
		names = append(names, n.Name)
	}
	return strings.Join(names, sep)
}

func (d *runner) watch(ctx context.Context, step int) error {
	if d.sb.multi() {
		d.step(step, "MAIN watches every node's result branch (tx watch) and authorizes once")
		d.say("tx watch fetches all %d node branches in one git fetch, checks each node's READY on", len(d.sb.nodes))
		d.say("its own (task ID, live flags, common clock, publication age, frequency and rate,")
		d.say("capture time left, the node's own signer), shows one table and asks for the exact")
		d.say("phrase %q ONCE for all nodes; the window is the smallest of theirs. After the", txPhrase)
		d.say("phrase it fetches again, repeats every check for every node and writes one record")
		d.say("binding each node's commit. It never transmits.")
	} else {
		d.step(step, "MAIN watches the result branch (tx watch) and authorizes")
		d.say("tx watch fetches the result branch, checks the READY result (task ID, live flags,")
		d.say("common clock, publication age, frequency and rate, capture time left) and asks for")
		d.say("the exact phrase %q with a countdown. After the phrase it fetches again,", txPhrase)
		d.say("repeats every check and writes a single-use authorization record. It never transmits.")
	}
	// tx watch reports a result that ends without a record in a line of its
	// own, reasons indented after it: the step fails on it at once instead of
	// waiting for the prompt's expiry (a result is never offered twice).
	var failure failureReport
	spec := d.prompted(childSpec{Args: []string{"tx", "watch"}, OnLine: func(line string) {
		failure.see(line, strings.Contains(line, "nothing authorized") || strings.Contains(line, "refused, not offered") || strings.Contains(line, "no offer ("))
	}}, phraseAnswer)
	if !d.o.Auto {
		d.say(">>> You are the MAIN operator: when the prompt appears, type %s and Enter", txPhrase)
		d.say("    before the countdown runs out.")
	}
	// After the earliest node's expiry no check could pass any more.
	var last time.Time
	for i, r := range d.readies {
		if u := txgate.ReadyUntil(r, d.sb.mainPol, 0).Add(5 * time.Second); i == 0 || u.Before(last) {
			last = u
		}
	}
	err := d.watchUntil(ctx, spec, last, "an authorization record", "writing an authorization record", func() (bool, error) {
		if msg, ok := failure.settled(); ok {
			return false, errors.New(msg)
		}
		r, err := d.findRecord()
		if err != nil || r == "" {
			return false, err
		}
		d.record = r
		d.say("The authorization record exists: %s", d.record)
		return true, nil
	})
	if err != nil {
		return err
	}
	data, err := os.ReadFile(d.record)
	if err != nil {
		return err
	}
	d.show("record", data)
	return nil
}

// watchUntil runs tx watch until found, then stops it as Ctrl-C would: it
// must stop cleanly. It fails as soon as tx watch exits or --auto saw a
// question it does not answer.
func (d *runner) watchUntil(ctx context.Context, spec childSpec, deadline time.Time, what, before string, found func() (bool, error)) error {
	c, err := d.start(spec)
	if err != nil {
		return err
	}
	err = until(ctx, deadline, what, func() (bool, error) {
		if c.done() {
			code, _ := c.wait(ctx)
			return false, fmt.Errorf("tx watch exited %d before %s", code, before)
		}
		if c.auto != nil {
			if _, err := c.auto.result(); err != nil {
				return false, err
			}
		}
		return found()
	})
	if err != nil {
		c.stop(stopGrace)
		return err
	}
	d.say("Stopping tx watch (SIGINT, as Ctrl-C would).")
	if err := interruptProcess(c.proc); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	code, err := d.waitFor(ctx, c, 30*time.Second)
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("tx watch exited %d after SIGINT, want 0 (a clean stop)", code)
	}
	return nil
}

// failureReport keeps a child's first line reporting a failure and the
// indented lines after it, its reasons.
type failureReport struct {
	mu    sync.Mutex
	lines []string
	seen  int // len(lines) at the last settled call
}

func (f *failureReport) see(line string, failed bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case len(f.lines) == 0 && failed:
		f.lines = []string{strings.TrimSpace(line)}
	case len(f.lines) > 0 && strings.HasPrefix(line, " "):
		f.lines = append(f.lines, line)
	}
}

// settled returns the report once no line was added to it since the last
// call (the reasons follow the first line at once).
func (f *failureReport) settled() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.lines)
	quiet := n > 0 && n == f.seen
	f.seen = n
	return strings.Join(f.lines, "\n"), quiet
}

func (d *runner) execute(ctx context.Context, step int) error {
	d.step(step, "MAIN runs the TX executor (tx execute) with the fake action")
	d.say("tx execute is the separate RED action: quick checks of the record, the phrase")
	d.say("%q again, then — immediately before any hardware — a fresh fetch of the", txPhrase)
	if d.sb.multi() {
		d.say("branches and every check again for every node, with time for the whole transmission plus")
	} else {
		d.say("result branch and every check again, with time for the whole transmission plus")
	}
	d.say("the minimum remaining. Then it marks the record used (once only) and runs the")
	d.say("action: here the fake one, which opens nothing and records RF TX = 0.")
	spec := d.prompted(childSpec{Args: []string{"tx", "execute", d.record}}, phraseAnswer)
	if !d.o.Auto {
		d.say(">>> Type %s and Enter once more.", txPhrase)
	}
	if err := d.runWant(ctx, spec, d.promptTimeout(), 0, "tx execute exited %d: the action did not run"); err != nil {
		return err
	}
	o, err := d.readOutcome()
	if err != nil {
		return err
	}
	d.outcome = o
	d.say("The fake TX action ran: action %s, rf_tx_started %v, RF TX = %d.", o.Action, o.RFTXStarted, *o.RFTX)
	d.air, err = d.putOnAir()
	return err
}

func (d *runner) complete(ctx context.Context, step int) error {
	d.step(step, "RX capture ends and COMPLETE is published")
	end := txgate.CaptureEnd(d.readies[0])
	d.say("The capture stops by itself after %d s (about %s); the executor then publishes", d.o.Timing.PlannedS, end.Local().Format("15:04:05"))
	d.say("COMPLETE with the size, SHA-256, error counters and CLKIN after the capture.")
	if d.sb.multi() {
		d.say("Each node's COMPLETE also carries the SHA-512 of its SigMF metadata (%s-<node>.sigmf-meta).", taskID)
	}
	for i, n := range d.sb.nodes {
		code, err := d.waitCapture(ctx, d.captures[i], time.Until(txgate.CaptureEnd(d.readies[i]))+2*time.Minute, n)
		if err != nil {
			return err
		}
		if code != 0 {
			return fmt.Errorf("rx capture%s exited %d, want 0 (COMPLETE published)", on(n), code)
		}
		r, commit, err := d.remoteResult(ctx, n)
		if err != nil {
			return err
		}
		if r == nil || r.State != result.StateComplete {
			return fmt.Errorf("the result on %s is not COMPLETE after rx capture exited 0", n.Branch)
		}
		d.say("COMPLETE is on %s at commit %s:", n.Branch, short(commit))
		d.say("  capture_exit_code %s, capture_size_bytes %s, capture_duration_s %s",
			ptrStr(r.CaptureExitCode), ptrStr(r.CaptureSizeBytes), ptrStr(r.CaptureDurationS))
		d.say("  capture_sha256 %s", ptrStr(r.CaptureSHA256))
		d.say("  overruns %s, dropped_frames %s, clkin_after %s, rf_tx_observed %s, rf_tx %d",
			ptrStr(r.Overruns), ptrStr(r.DroppedFrames), ptrStr(r.ClkinAfter), ptrStr(r.RFTXObserved), r.RFTX)
	}
	return nil
}

func (d *runner) collect(ctx context.Context, step int) error {
	d.step(step, "MAIN collects the recordings (tx watch writes the SigMF Collection)")
	d.say("Once every node has published COMPLETE, tx watch writes a SigMF Collection naming")
	d.say("each node's recording with the SHA-512 of its .sigmf-meta. Raw IQ stays on the nodes.")
	path := sigmf.CollectionPath(d.sb.mainPol.StatePath(), taskID)
	spec := childSpec{Args: []string{"tx", "watch"}, Attach: attachPipes}
	err := d.watchUntil(ctx, spec, time.Now().Add(2*time.Minute), "the collection "+path, "writing the collection", func() (bool, error) {
		_, err := os.Stat(path)
		if errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	d.say("The collection exists: %s", path)
	d.show("collection", data)
	return nil
}

func (d *runner) summary(ctx context.Context, step int) error {
	d.step(step, "Summary")
	o := d.outcome
	for _, node := range d.sb.nodes {
		log, err := d.resultLog(ctx, node.Branch)
		if err != nil {
			return err
		}
		d.say("Commits on %s (newest first):", node.Branch)
		for _, l := range log {
			d.out.line("     ", l)
		}
	}
	d.say("Outcome file: %s", o.path)
	d.showHeard(d.air)
	for _, node := range append(slices.Clone(d.sb.nodes), nil) { // nil: MAIN
		spec := childSpec{Node: node, Args: []string{"audit", "verify"}}
		d.say("%s audit log (every subprocess, hash-chained):", spec.side())
		if err := d.runWant(ctx, spec, time.Minute, 0, "%s audit verify exited %d: the audit log is broken", spec.side()); err != nil {
			return err
		}
	}
	d.showNotifications()
	d.say("Notifications the demo's webhook received (none approves anything): %s.", d.rcv.tally())
	if d.sb.multi() {
		d.out.printf("\nDemo complete: %d RX nodes each approved the task at their own prompt, captured and\n"+
			"published READY then COMPLETE on their own branches; MAIN asked for the phrase once for\n"+
			"all of them, tx execute re-checked every node, the collection names every recording,\n"+
			"and the fake TX action recorded RF TX = %d: nothing was transmitted.\n", len(d.sb.nodes), *o.RFTX)
		return nil
	}
	d.out.printf("\nDemo complete: the task was approved at the prompt, the capture ran and published\n"+
		"READY then COMPLETE, MAIN authorized after the exact phrase, and the fake TX action\n"+
		"recorded RF TX = %d: nothing was transmitted.\n", *o.RFTX)
	return nil
}

func (d *runner) run(ctx context.Context, spec childSpec, timeout time.Duration) (int, error) {
	c, err := d.start(spec)
	if err != nil {
		return -1, err
	}
	code, err := d.waitFor(ctx, c, timeout)
	if err != nil {
		return code, err
	}
	if c.auto != nil {
		if pending, aerr := c.auto.result(); aerr != nil {
			return code, aerr
		} else if len(pending) > 0 && code == 0 {
			return code, fmt.Errorf("%s exited without asking %q", c.name, pending[0].Prompt)
		}
	}
	return code, nil
}

// runWant is run, failing unless spec exits want: format gets args and
// then the exit code.
func (d *runner) runWant(ctx context.Context, spec childSpec, timeout time.Duration, want int, format string, args ...any) error {
	code, err := d.run(ctx, spec, timeout)
	if err == nil && code != want {
		err = fmt.Errorf(format, append(args, code)...)
	}
	return err
}

// waitFor waits for c at most timeout; past it c is stopped.
func (d *runner) waitFor(ctx context.Context, c *child, timeout time.Duration) (int, error) {
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	code, err := c.wait(wctx)
	if err != nil && ctx.Err() == nil {
		return code, fmt.Errorf("%s did not finish within %s; stopped", c.name, timeout.Round(time.Second))
	}
	return code, err
}

// progressEvery is how often the interactive demo shows the capture's
// latest progress line.
const progressEvery = 10 * time.Second

// waitCapture is waitFor for node n's capture c; interactively it shows
// its log's progress too (with --auto its output streams already).
func (d *runner) waitCapture(ctx context.Context, c *child, timeout time.Duration, n *rxNode) (int, error) {
	if d.o.Auto {
		return d.waitFor(ctx, c, timeout)
	}
	log := d.captureLog(n)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if lines, _ := logLines(log); len(lines) > 0 {
					d.out.line(sidePrefix("RX"), lines[len(lines)-1])
				}
			}
		}
	}()
	code, err := d.waitFor(ctx, c, timeout)
	close(stop)
	<-stopped
	if err == nil {
		d.showTail(log, 10)
	}
	return code, err
}

// prompted attaches spec to the terminal its prompt is answered at: with
// --auto a pty where a is typed, else the operator's.
func (d *runner) prompted(spec childSpec, a Answer) childSpec {
	if d.o.Auto {
		spec.Attach = attachPTY
		spec.Answers = []Answer{a}
	} else {
		spec.Attach = attachOperator
	}
	return spec
}

// promptTimeout bounds a command that waits for an answer: a person needs
// time to read.
func (d *runner) promptTimeout() time.Duration {
	if d.o.Auto {
		return 2 * time.Minute
	}
	return 15 * time.Minute
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
