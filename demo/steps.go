package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"rfhandoff/gate"
	"rfhandoff/gate/txgate"
	"rfhandoff/gitcli"
	"rfhandoff/hacksim"
	"rfhandoff/prompt"
	"rfhandoff/result"
	"rfhandoff/sigmf"
)

// Step names, as a failure reports them.
const (
	stepTask    = "MAIN pushes the task"
	stepCheck   = "RX rx check"
	stepApprove = "RX rx approve"
	stepCapture = "RX rx capture, READY"
	stepWatch   = "MAIN tx watch, authorization"
	stepExecute = "MAIN tx execute, fake TX"
	stepDone    = "RX capture ends, COMPLETE"
	stepCollect = "MAIN tx watch, the collection"
	stepSummary = "summary"
	stepProof   = "proof by the signal"
)

// txPhrase is the phrase both TX prompts require (PROTOCOL#main-pc).
var txPhrase = gate.TXPhrase

func (d *runner) steps(ctx context.Context) error {
	// After each step, the notifications it sent (PROTOCOL#notifications), as the
	// demo's webhook received them.
	defer d.showNotifications()
	if err := d.pushTask(ctx); err != nil {
		return stepErr(1, stepTask, err)
	}
	if err := d.check(ctx); err != nil {
		return stepErr(2, stepCheck, err)
	}
	d.showNotifications()
	if err := d.approve(ctx); err != nil {
		return stepErr(3, stepApprove, err)
	}
	captures, readies, err := d.capture(ctx)
	if err != nil {
		return stepErr(4, stepCapture, err)
	}
	d.showNotifications()
	record, err := d.watch(ctx, readies)
	if err != nil {
		return stepErr(5, stepWatch, err)
	}
	d.showNotifications()
	outcome, air, err := d.execute(ctx, record)
	if err != nil {
		return stepErr(6, stepExecute, err)
	}
	d.showNotifications()
	if err := d.complete(ctx, captures, readies); err != nil {
		return stepErr(7, stepDone, err)
	}
	d.showNotifications()
	last := 8
	if d.sb.multi() {
		if err := d.collect(ctx); err != nil {
			return stepErr(8, stepCollect, err)
		}
		d.showNotifications()
		last = 9
	}
	if d.sb.Sync != "" {
		if err := d.prove(ctx, last, air); err != nil {
			return stepErr(last, stepProof, err)
		}
		last++
	}
	return stepErr(last, stepSummary, d.summary(ctx, last, outcome, air))
}

// on names the node in a line about it ("" on the single-node demo).
func on(n *rxNode) string {
	if n.Name == "" {
		return ""
	}
	return " on " + n.Name
}

// Step 1 — MAIN writes the task with task new and pushes it.
func (d *runner) pushTask(ctx context.Context) error {
	d.step(1, "MAIN writes a task (task new) and pushes it to the task branch")
	if d.sb.multi() {
		d.say("The MAIN PC asks the RX nodes for a bounded receive. task new fetches the task")
	} else {
		d.say("The MAIN PC asks the RX laptop for a bounded receive. task new fetches the task")
	}
	d.say("branch, sets EXPECTED_HEAD to its tip (%s), derives the level (YELLOW: it uses", short(d.sb.BaseCommit))
	d.say("hardware and pushes a result, but transmits nothing on the RX side), checks that")
	d.say("the TASK_ID was never used and validates the file with the RX side's own parser.")
	bodyFile := filepath.Join(d.sb.Root, "task-body.md")
	if err := os.WriteFile(bodyFile, []byte(taskBody(d.t, d.sb.multi())+syncBody(d.sb.Sync)), 0o644); err != nil {
		return err
	}
	if d.sb.multi() {
		d.say("RX_NODES names the %d receivers (%s): each approves and captures on its own, publishes", len(d.sb.nodes), d.nodeList())
		d.say("on its own result branch, and MAIN asks for the phrase once, for all of them (PROTOCOL#several-nodes).")
	}
	code, err := d.run(ctx, childSpec{Side: "MAIN", Policy: d.sb.MainPolicy, Args: taskArgs(bodyFile, d.nodeNames(), d.schedule())}, time.Minute)
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("task new exited %d, want 0 (the task file written)", code)
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
	// MAIN's own git calls go to MAIN's audit log, like everything MAIN runs.
	pol, err := d.sb.loadConfined(d.sb.MainPolicy)
	if err != nil {
		return err
	}
	r, err := d.sb.runner(pol)
	if err != nil {
		return err
	}
	// MAIN signs the task commit with its throw-away key: the RX side's
	// trust.task_signers lists only that key.
	g := &gitcli.Client{R: r, Dir: d.sb.Main, SigningKey: d.sb.MainKey}
	if err := g.Add(ctx, rel); err != nil {
		return err
	}
	id, err := g.Commit(ctx, "Task "+taskID, nil)
	if err != nil {
		return err
	}
	if err := g.Push(ctx, "origin", "HEAD", taskBranch); err != nil {
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

// Step 2 — RX rx check: a valid task awaits approval (exit 10).
func (d *runner) check(ctx context.Context) error {
	d.step(2, "RX checks the task branch (rx check, as cron would)")
	d.say("The RX laptop fetches only the task branch, reads the task from git (not the")
	d.say("working tree), validates every field and the EXPECTED_HEAD ancestry, and records")
	d.say("it as seen. Exit status 10 means: a valid task awaits approval.")
	for _, n := range d.sb.nodes {
		code, err := d.run(ctx, childSpec{Side: n.Side, Policy: n.Policy, Args: []string{"rx", "check"}}, time.Minute)
		if err != nil {
			return err
		}
		if code != 10 {
			return fmt.Errorf("rx check%s exited %d, want 10 (a valid task awaits approval)", on(n), code)
		}
		d.say("rx check%s exited 10: task %s awaits approval.", on(n), taskID)
	}
	return nil
}

// Step 3 — RX rx approve: the real approval prompt.
func (d *runner) approve(ctx context.Context) error {
	d.step(3, "RX operator approves the task at the real prompt (rx approve)")
	d.say("The approval prompt shows the task and reads the answer from the controlling")
	d.say("terminal only; the approval is bound to the SHA-256 of the task's exact bytes.")
	if d.sb.multi() {
		d.say("Each node has its own operator and its own prompt: %s approve one after the other.", d.nodeList())
	}
	for _, n := range d.sb.nodes {
		spec := childSpec{Side: n.Side, Policy: n.Policy, Args: []string{"rx", "approve", taskID}}
		if d.o.Auto {
			d.say("--auto types A at the prompt%s once it is shown (a YELLOW task needs nothing more).", on(n))
			spec.Attach = attachPTY
			spec.Answers = []Answer{{Prompt: prompt.OneShotMenu, Reply: "A"}}
		} else {
			if n.Name == "" {
				d.say(">>> You are the RX operator: read the task, then type A and Enter to approve it.")
			} else {
				d.say(">>> You are the operator of %s: read the task, then type A and Enter to approve it.", n.Name)
			}
			spec.Attach = attachOperator
		}
		code, err := d.run(ctx, spec, d.promptTimeout())
		if err != nil {
			return err
		}
		if code != 0 {
			return fmt.Errorf("rx approve%s exited %d: the task was not approved", on(n), code)
		}
		if n.Name == "" {
			d.say("Approved: the RX laptop may now run exactly this task.")
		} else {
			d.say("Approved on %s: this node may now run exactly this task.", n.Name)
		}
	}
	return nil
}

// Step 4 — RX rx capture in the background, until READY is on the remote
// (on every node's branch).
func (d *runner) capture(ctx context.Context) ([]*child, []*result.Result, error) {
	d.step(4, "RX starts the capture (rx capture) and publishes READY")
	d.say("The capture executor checks the HackRF (the simulator here) and the common clock")
	d.say("(hackrf_clock -i: CLKIN detected), starts a bounded hackrf_transfer -r of %d s,", d.t.PlannedS)
	if d.sb.multi() {
		d.say("confirms the file grows, and pushes READY (RX_RESULT.json) to the node's own branch")
		d.say("(%s), signed with the node's key. All %d nodes capture at once.", d.nodeList(), len(d.sb.nodes))
	} else {
		d.say("confirms the file grows, and pushes READY (RX_RESULT.json) to %s.", resultBranch)
	}
	var cs []*child
	for _, n := range d.sb.nodes {
		spec := childSpec{Side: n.Side, Policy: n.Policy, Args: []string{"rx", "capture", taskID}, Attach: attachPipes}
		if !d.o.Auto {
			log, err := os.Create(d.captureLog(n))
			if err != nil {
				return nil, nil, err
			}
			// The capture's own output goes to a log so it cannot scribble over
			// the TX prompts on your terminal.
			spec.Output = log
			d.say("It runs in the background; its output goes to %s.", log.Name())
		}
		c, err := d.start(spec)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, c)
	}
	readies := make([]*result.Result, len(d.sb.nodes))
	deadline := time.Now().Add(2 * time.Minute)
	if d.sb.Sync != "" {
		d.say("Each node waits for START_AT %s (%s from now): PPS arms hackrf_transfer -H", d.startAt.Format(time.RFC3339), time.Until(d.startAt).Round(time.Second))
		d.say("sync.pps_arm_margin_s before the edge; HOST_CLOCK starts it so that its first sample lands on START_AT")
		d.say("by the host clock corrected by chrony's offset. READY carries each node's alignment.")
		deadline = d.startAt.Add(2 * time.Minute)
	}
	for i, n := range d.sb.nodes {
		c := cs[i]
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
			readies[i] = r
			d.say("READY is on %s at commit %s: capture started %s, %d s planned, CLKIN verified: %v.",
				n.Branch, short(commit), r.CaptureStartedAt.Local().Format("15:04:05"), r.PlannedDurationS, r.CommonClockVerified)
			return true, nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return cs, readies, nil
}

// captureLog is where the interactive demo sends node n's capture output.
func (d *runner) captureLog(n *rxNode) string {
	if n.Name == "" {
		return filepath.Join(d.sb.Root, "rx-capture.log")
	}
	return filepath.Join(d.sb.Root, n.Name+"-capture.log")
}

// nodeNames are the task's RX_NODES (nil on the single-node demo).
func (d *runner) nodeNames() []string {
	if !d.sb.multi() {
		return nil
	}
	var names []string
	for _, n := range d.sb.nodes {
		names = append(names, n.Name)
	}
	return names
}

// nodeList is "rx-a, rx-b, rx-c".
func (d *runner) nodeList() string { return strings.Join(d.nodeNames(), ", ") }

// Step 5 — MAIN tx watch: the READY result, AUTHORIZE RF TX, the record.
func (d *runner) watch(ctx context.Context, readies []*result.Result) (string, error) {
	if d.sb.multi() {
		d.step(5, "MAIN watches every node's result branch (tx watch) and authorizes once")
		d.say("tx watch fetches all %d node branches in one git fetch, checks each node's READY on", len(d.sb.nodes))
		d.say("its own (task ID, live flags, common clock, publication age, frequency and rate,")
		d.say("capture time left, the node's own signer), shows one table and asks for the exact")
		d.say("phrase %q ONCE for all nodes; the window is the smallest of theirs. After the", txPhrase)
		d.say("phrase it fetches again, repeats every check for every node and writes one record")
		d.say("binding each node's commit. It never transmits.")
	} else {
		d.step(5, "MAIN watches the result branch (tx watch) and authorizes")
		d.say("tx watch fetches the result branch, checks the READY result (task ID, live flags,")
		d.say("common clock, publication age, frequency and rate, capture time left) and asks for")
		d.say("the exact phrase %q with a countdown. After the phrase it fetches again,", txPhrase)
		d.say("repeats every check and writes a single-use authorization record. It never transmits.")
	}
	pol, err := d.sb.loadConfined(d.sb.MainPolicy)
	if err != nil {
		return "", err
	}
	// tx watch reports every way a result ends without a record in a line
	// of its own, its reasons on the indented lines after it; the step
	// fails on it at once instead of waiting for the prompt's expiry (a
	// result is never offered twice).
	var failure failureReport
	spec := childSpec{Side: "MAIN", Policy: d.sb.MainPolicy, Args: []string{"tx", "watch"}, OnLine: func(line string) {
		failure.see(line, strings.Contains(line, "nothing authorized") || strings.Contains(line, "refused, not offered") || strings.Contains(line, "no offer ("))
	}}
	if d.o.Auto {
		spec.Attach = attachPTY
		spec.Answers = []Answer{{Prompt: "Type exactly: " + txPhrase, Reply: txPhrase}}
	} else {
		d.say(">>> You are the MAIN operator: when the prompt appears, type %s and Enter", txPhrase)
		d.say("    before the countdown runs out.")
		spec.Attach = attachOperator
	}
	c, err := d.start(spec)
	if err != nil {
		return "", err
	}
	// After this moment no check could pass any more: the prompt has
	// expired (at the earliest node's expiry) and nothing will be written.
	var last time.Time
	for i, r := range readies {
		if u := txgate.ReadyUntil(r, pol, 0).Add(5 * time.Second); i == 0 || u.Before(last) {
			last = u
		}
	}
	var record string
	err = until(ctx, last, "an authorization record", func() (bool, error) {
		if c.done() {
			code, _ := c.wait(ctx)
			return false, fmt.Errorf("tx watch exited %d before writing an authorization record", code)
		}
		if c.auto != nil {
			if err := c.auto.failed(); err != nil {
				return false, err
			}
		}
		if msg, ok := failure.settled(); ok {
			return false, errors.New(msg)
		}
		r, err := d.findRecord(pol)
		record = r
		return r != "", err
	})
	if err != nil {
		c.stop(stopGrace)
		return "", err
	}
	d.say("The authorization record exists: %s", record)
	d.say("Stopping tx watch (SIGINT, as Ctrl-C would).")
	if err := c.interrupt(); err != nil {
		return "", err
	}
	code, err := d.waitFor(ctx, c, 30*time.Second)
	if err != nil {
		return "", err
	}
	if code != 0 {
		return "", fmt.Errorf("tx watch exited %d after SIGINT, want 0 (a clean stop)", code)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		return "", err
	}
	d.show("record", data)
	return record, nil
}

// failureReport keeps the first line of a child's that reports a failure
// and the indented lines after it, which carry its reasons.
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

// settled returns the report once one was seen and no line was added to
// it since the last call (the reasons follow the first line at once).
func (f *failureReport) settled() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.lines)
	quiet := n > 0 && n == f.seen
	f.seen = n
	return strings.Join(f.lines, "\n"), quiet
}

// Step 6 — MAIN tx execute with the fake action.
func (d *runner) execute(ctx context.Context, record string) (*outcome, hacksim.OnAir, error) {
	d.step(6, "MAIN runs the TX executor (tx execute) with the fake action")
	d.say("tx execute is the separate RED action: quick checks of the record, the phrase")
	d.say("%q again, then — immediately before any hardware — a fresh fetch of the", txPhrase)
	if d.sb.multi() {
		d.say("branches and every check again for every node, with time for the whole transmission plus")
	} else {
		d.say("result branch and every check again, with time for the whole transmission plus")
	}
	d.say("the minimum remaining. Then it marks the record used (once only) and runs the")
	d.say("action: here the fake one, which opens nothing and records RF TX = 0.")
	spec := childSpec{Side: "MAIN", Policy: d.sb.MainPolicy, Args: []string{"tx", "execute", record}}
	if d.o.Auto {
		spec.Attach = attachPTY
		spec.Answers = []Answer{{Prompt: "Type exactly: " + txPhrase, Reply: txPhrase}}
	} else {
		d.say(">>> Type %s and Enter once more.", txPhrase)
		spec.Attach = attachOperator
	}
	code, err := d.run(ctx, spec, d.promptTimeout())
	if err != nil {
		return nil, hacksim.OnAir{}, err
	}
	if code != 0 {
		return nil, hacksim.OnAir{}, fmt.Errorf("tx execute exited %d: the action did not run", code)
	}
	o, data, err := readOutcome(record)
	if err != nil {
		return nil, hacksim.OnAir{}, err
	}
	d.show("outcome", data)
	if err := o.check(); err != nil {
		return nil, hacksim.OnAir{}, err
	}
	d.say("The fake TX action ran: action %s, rf_tx_started %v, RF TX = %d.", o.Action, o.RFTXStarted, *o.RFTX)
	pol, err := d.sb.loadConfined(d.sb.MainPolicy)
	if err != nil {
		return nil, hacksim.OnAir{}, err
	}
	air, err := d.putOnAir(pol)
	if err != nil {
		return nil, hacksim.OnAir{}, err
	}
	return o, air, nil
}

// Step 7 — the capture ends and COMPLETE is published (by every node).
func (d *runner) complete(ctx context.Context, cs []*child, readies []*result.Result) error {
	d.step(7, "RX capture ends and COMPLETE is published")
	end := txgate.CaptureEnd(readies[0])
	d.say("The capture stops by itself after %d s (about %s); the executor then publishes", d.t.PlannedS, end.Local().Format("15:04:05"))
	d.say("COMPLETE with the size, SHA-256, error counters and CLKIN after the capture.")
	if d.sb.multi() {
		d.say("Each node's COMPLETE also carries the SHA-512 of its SigMF metadata (%s-<node>.sigmf-meta).", taskID)
	}
	for i, n := range d.sb.nodes {
		c := cs[i]
		timeout := time.Until(txgate.CaptureEnd(readies[i])) + 2*time.Minute
		var code int
		var err error
		if d.o.Auto {
			code, err = d.waitFor(ctx, c, timeout) // its progress streams already
		} else {
			code, err = d.waitShowingProgress(ctx, c, timeout, d.captureLog(n))
		}
		if err != nil {
			return err
		}
		if !d.o.Auto {
			d.showTail(d.captureLog(n), 10)
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

// Step 8 (several nodes) — tx watch sees every COMPLETE and writes the
// SigMF Collection.
func (d *runner) collect(ctx context.Context) error {
	d.step(8, "MAIN collects the recordings (tx watch writes the SigMF Collection)")
	d.say("Once every node has published COMPLETE, tx watch writes a SigMF Collection naming")
	d.say("each node's recording with the SHA-512 of its .sigmf-meta. Raw IQ stays on the nodes.")
	pol, err := d.sb.loadConfined(d.sb.MainPolicy)
	if err != nil {
		return err
	}
	path := sigmf.CollectionPath(pol.StatePath(), taskID)
	c, err := d.start(childSpec{Side: "MAIN", Policy: d.sb.MainPolicy, Args: []string{"tx", "watch"}, Attach: attachPipes})
	if err != nil {
		return err
	}
	err = until(ctx, time.Now().Add(2*time.Minute), "the collection "+path, func() (bool, error) {
		if c.done() {
			code, _ := c.wait(ctx)
			return false, fmt.Errorf("tx watch exited %d before writing the collection", code)
		}
		_, err := os.Stat(path)
		if errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		c.stop(stopGrace)
		return err
	}
	d.say("Stopping tx watch (SIGINT, as Ctrl-C would).")
	if err := c.interrupt(); err != nil {
		return err
	}
	code, err := d.waitFor(ctx, c, 30*time.Second)
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("tx watch exited %d after SIGINT, want 0 (a clean stop)", code)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	d.say("The collection exists: %s", path)
	d.show("collection", data)
	return nil
}

// The last step — what happened, and every audit log verified.
func (d *runner) summary(ctx context.Context, n int, o *outcome, air hacksim.OnAir) error {
	d.step(n, "Summary")
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
	d.showHeard(air)
	type side struct{ side, policy string }
	var sides []side
	for _, node := range d.sb.nodes {
		sides = append(sides, side{node.Side, node.Policy})
	}
	for _, side := range append(sides, side{"MAIN", d.sb.MainPolicy}) {
		d.say("%s audit log (every subprocess, hash-chained):", side.side)
		code, err := d.run(ctx, childSpec{Side: side.side, Policy: side.policy, Args: []string{"audit", "verify"}}, time.Minute)
		if err != nil {
			return err
		}
		if code != 0 {
			return fmt.Errorf("%s audit verify exited %d: the audit log is broken", side.side, code)
		}
	}
	if d.rcv != nil {
		d.showNotifications()
		d.say("Notifications the demo's webhook received (none approves anything): %s.", d.rcv.tally())
	}
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

// run starts spec and waits for it (bounded by timeout) and returns its
// exit code.
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
		if _, pending, aerr := c.auto.result(); aerr != nil {
			return code, aerr
		} else if len(pending) > 0 && code == 0 {
			return code, fmt.Errorf("%s exited without asking %q", c.name, pending[0].Prompt)
		}
	}
	return code, nil
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
// latest progress line while it waits for the end.
const progressEvery = 10 * time.Second

// waitShowingProgress is waitFor, printing the last line of the capture's
// log every progressEvery.
func (d *runner) waitShowingProgress(ctx context.Context, c *child, timeout time.Duration, log string) (int, error) {
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-c.exited:
			return d.waitFor(ctx, c, drainTimeout)
		case <-tick.C:
			if l := lastLine(log); l != "" {
				d.out.line(sidePrefix("RX"), l)
			}
		case <-wctx.Done():
			c.stop(stopGrace)
			if ctx.Err() != nil {
				return -1, ctx.Err()
			}
			return -1, fmt.Errorf("%s did not finish within %s; stopped", c.name, timeout.Round(time.Second))
		}
	}
}

// promptTimeout bounds a command that waits for an answer: a person gets
// time to read; --auto answers at once.
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
