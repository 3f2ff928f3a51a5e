package txwatch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/gate"
	"rfhandoff/gitcli"
	"rfhandoff/mirror"
	"rfhandoff/result"
	"rfhandoff/sigmf"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// nodeView is what tx watch read at one [[nodes]] branch's tip
// (PROTOCOL#several-nodes): a decoded result, or why there is none to use.
type nodeView struct {
	node   config.MainNode
	commit string
	snap   Snapshot
	r      *result.Result
	nf     result.NodeFields
	signer *gitcli.Signature
	bad    error // the tip holds no usable result: refused, or no file
	// unreadable: bad is a file too large or not a regular file.
	unreadable bool
}

// setDigest is what a several-node record's result_sha256 holds: the
// SHA-256 of one line "<node> <branch> <commit> <sha256> <signer>\n" per
// node, in order (the signer "-" when none was required).
func setDigest(nodes []NodeBinding) string {
	var b strings.Builder
	for _, n := range nodes {
		signer := n.ResultSigner
		if signer == "" {
			signer = "-"
		}
		fmt.Fprintf(&b, "%s %s %s %s %s\n", n.Node, n.ResultBranch, n.ResultCommit, n.ResultSHA256, signer)
	}
	return result.SHA256([]byte(b.String()))
}

// policyNode is the [[nodes]] table named name.
func policyNode(pol config.Policy, name string) (config.MainNode, bool) {
	for _, n := range pol.Nodes {
		if n.Name == name {
			return n, true
		}
	}
	return config.MainNode{}, false
}

// readNode reads node n's result at commit, the tip of its branch, as
// tx watch reads the single result branch: the file bounded and regular,
// the tip speaking for it (its own signers), then strictly decoded as a
// result of that node. An error is operational (retried); a refusal is
// the view's bad.
func readNode(ctx context.Context, src Source, commit string, now time.Time) (*nodeView, error) {
	v := &nodeView{node: src.Node, commit: commit}
	snap, err := src.ReadResult(ctx, commit)
	var tooLarge *gitcli.TooLargeError
	var notRegular *gitcli.NotRegularFileError
	switch {
	case errors.As(err, &tooLarge) || errors.As(err, &notRegular):
		v.bad, v.unreadable = err, true
		return v, nil
	case err != nil:
		return nil, fmt.Errorf("reading %s at %s of node %s: %w", src.ResultPath(), commit, src.Node.Name, err)
	case snap.Data == nil:
		v.bad = fmt.Errorf("no %s on branch %s at commit %s yet", src.ResultPath(), src.Branch(), short(commit))
		return v, nil
	}
	v.snap = snap
	signer, err := src.VerifyResult(ctx, snap, now)
	if notSpeaking(err) {
		v.bad = fmt.Errorf("no valid result on branch %s now: %w", src.Branch(), err)
		return v, nil
	}
	if err != nil {
		return nil, fmt.Errorf("verifying the signature of %s at %s of node %s: %w", src.ResultPath(), short(commit), src.Node.Name, err)
	}
	v.signer = signer
	if v.r, v.nf, err = src.DecodeNode(snap); err != nil {
		v.bad = err
	}
	return v, nil
}

// pollNodes reads each [[nodes]] branch whose tip moved and, when one
// did, judges the current task's nodes together: one offer when every
// node of its RX_NODES has a READY that passes on its own.
func (w *Watcher) pollNodes(ctx context.Context, commits map[string]string) error {
	if w.views == nil {
		w.views = map[string]*nodeView{}
	}
	var changed []string
	for _, n := range w.Policy.Nodes {
		c := commits[n.ResultBranch]
		if v := w.views[n.Name]; v != nil && v.commit == c {
			continue
		}
		src := w.src.ForNode(n)
		// Every result since the last look at the branch first (PROTOCOL#trust).
		if since := w.st.NodeLook(n.ResultBranch); since != c {
			l, err := src.look(ctx, c, since)
			if err != nil {
				return err
			}
			w.reportLook(n.ResultBranch, l, l.record(&w.st))
			w.st.SetNodeLook(n.ResultBranch, c)
		}
		v, err := readNode(ctx, src, c, w.now())
		if err != nil {
			return err
		}
		switch {
		case v.bad != nil && v.snap.Data == nil && !v.unreadable:
			w.rep.once("node:"+n.Name+":"+c, "node %s: %v", n.Name, v.bad)
		case v.bad != nil:
			w.rep.once("node:"+n.Name+":"+c, "node %s: result at commit %s refused, not offered for authorization:\n%v", n.Name, short(c), v.bad)
		}
		if v.r != nil && v.r.State == result.StateComplete {
			// A node's COMPLETE ends the task's transmission (PROTOCOL#trust); the
			// look read it already, unless it was past the bound.
			w.st.MarkCompleted(v.r.TaskID, c)
		}
		w.views[n.Name], changed = v, append(changed, n.Name)
	}
	if len(changed) == 0 {
		return nil
	}
	// The looks and what they found, before anything is judged; if they
	// cannot be saved, the next poll reads those branches again.
	if err := state.SaveTX(w.Policy.StatePath(), w.st); err != nil {
		for _, name := range changed {
			delete(w.views, name)
		}
		return err
	}
	return w.judgeNodes(ctx)
}

// judgeNodes sets the nodes' views against the current task.
func (w *Watcher) judgeNodes(ctx context.Context) error {
	cur, err := w.src.CurrentTask(ctx)
	if err != nil {
		return fmt.Errorf("reading the current task (needed to check the nodes' results): %w", err)
	}
	if cur.Nodes.Len() == 0 {
		return nil // a single-node task: the nodes' branches have nothing for it
	}
	now := w.now()
	var ready []*nodeView
	var waiting, refused []string
	refusedBy := map[string]string{}
	completeAll := true
	for _, name := range cur.Nodes.Names() {
		n, ok := policyNode(w.Policy, name)
		v := w.views[name]
		switch {
		case !ok:
			refusedBy[name] = "RX_NODES lists it, but the policy's [[nodes]] does not (no branch to read it from)"
			refused = append(refused, name+": "+refusedBy[name])
		case v == nil || v.bad != nil || v.r.TaskID != cur.ID:
			waiting = append(waiting, name)
		case v.r.State == result.StateComplete:
			refused = append(refused, fmt.Sprintf("%s: published CAPTURE_COMPLETE for the task at %s", name, short(v.commit)))
		default:
			src := w.src.ForNode(n)
			if err := readyProblems(completedError(&w.st, v.r), gate.CheckReady(v.r, now, cur.ID, w.Policy), src.CheckSigned(v.signer, v.r)); err != nil {
				refusedBy[name] = err.Error()
				refused = append(refused, fmt.Sprintf("%s: READY %s at commit %s refused:\n%v", name, short(v.snap.Digest), short(v.commit), err))
			} else {
				ready = append(ready, v)
			}
		}
		completeAll = completeAll && ok && v != nil && v.r != nil && v.r.TaskID == cur.ID && v.r.State == result.StateComplete
	}
	if err := w.saveNodes(cur, now, refusedBy); err != nil {
		return err
	}
	if completeAll {
		return w.writeCollection(cur)
	}

	switch {
	case len(refused) > 0:
		msg := fmt.Sprintf("task %s: no offer (one phrase needs every node READY):\n%s", cur.ID, strings.Join(refused, "\n"))
		w.rep.once("nodes:"+msg, "%s", msg)
		return nil
	case len(waiting) > 0:
		msg := fmt.Sprintf("task %s: waiting for %s", cur.ID, strings.Join(waiting, ", "))
		if len(ready) > 0 {
			var names []string
			for _, v := range ready {
				names = append(names, v.node.Name)
			}
			msg = fmt.Sprintf("task %s: READY from %s; waiting for %s", cur.ID, strings.Join(names, ", "), strings.Join(waiting, ", "))
		}
		w.rep.once("nodes:"+msg, "%s", msg)
		return nil
	}
	bindings := bindingsOf(ready)
	set := setDigest(bindings)
	if w.st.Shown(set) {
		return nil
	}
	if !w.clockAllows(ctx, "set:"+set, fmt.Sprintf("task %s: every node's READY", cur.ID)) {
		return nil
	}
	// As for one result: recorded as shown before it is shown.
	w.st.MarkShown(set, now)
	if err := state.SaveTX(w.Policy.StatePath(), w.st); err != nil {
		delete(w.st.ShownResultDigests, set)
		return err
	}
	return w.authorizeNodes(ctx, cur, ready, set)
}

func bindingsOf(vs []*nodeView) []NodeBinding {
	out := make([]NodeBinding, len(vs))
	for i, v := range vs {
		out[i] = NodeBinding{Node: v.node.Name, ResultBranch: v.node.ResultBranch, ResultCommit: v.commit,
			ResultSHA256: v.snap.Digest, ResultSigner: signerFingerprint(v.signer)}
	}
	return out
}

// nodesUntil is the intersection of the nodes' windows: the earliest
// ReadyUntil, and the node it belongs to.
func (w *Watcher) nodesUntil(vs []*nodeView, extra time.Duration) (time.Time, string) {
	var until time.Time
	who := ""
	for _, v := range vs {
		if u := gate.ReadyUntil(v.r, w.Policy, extra); until.IsZero() || u.Before(until) {
			until, who = u, v.node.Name
		}
	}
	return until, who
}

// authorizeNodes shows the table of every node's READY, asks for the
// phrase once and, after it, re-checks every node against a fresh fetch
// before writing the one record that binds the set.
func (w *Watcher) authorizeNodes(ctx context.Context, cur *task.Task, vs []*nodeView, set string) error {
	now := w.now()
	deadline, who := w.nodesUntil(vs, 0)
	params := ParamsOf(w.Policy)
	o := nodesOffer(cur.ID, set, vs)
	var simulated []string
	for _, v := range vs {
		if v.r.Simulated {
			simulated = append(simulated, v.node.Name)
		}
	}
	o.base.Simulated = len(simulated) > 0
	if !w.offered(o, deadline) {
		return nil
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "node\tsigner\tcommit\tpublished\tstarted\ttime left\tcommon clock")
	for _, v := range vs {
		signer := "-"
		if v.signer != nil {
			signer = v.signer.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%v\n", v.node.Name, signer, short(v.commit),
			v.r.PublishedAt.Format(time.RFC3339), v.r.CaptureStartedAt.Format(time.RFC3339),
			gate.Remaining(v.r, now).Truncate(time.Second), v.r.CommonClockVerified)
	}
	tw.Flush()
	sim := ""
	if len(simulated) > 0 {
		sim = simulatedLine(true) + "simulated receivers: " + strings.Join(simulated, ", ") + "\n"
	}
	w.rep.printf("READY results from every node of task %s awaiting authorization (one phrase for all %d)\n"+sim+"%s"+
		"the window is the intersection: it closes with %s's; %d Hz at %d samples/s\n"+
		"authorizing allows `rfhandoff tx execute` to run once: %s\n"+
		"the prompt expires at %s",
		cur.ID, len(vs), b.String(), who, vs[0].r.FrequencyHz, vs[0].r.SampleRateHz,
		describeTX(params), deadline.Local().Format(time.RFC3339))
	prompt, withdraw := context.WithCancel(ctx)
	why, watched := w.watchOffer(prompt, withdraw, vs)
	ok := w.askPhrase(prompt, cur, deadline, o, why)
	withdraw()
	<-watched
	if !ok {
		return ctx.Err()
	}
	rec, err := w.recheckNodes(ctx, cur, bindingsOf(vs), params)
	return w.record(ctx, o, rec, err, fmt.Sprintf(" for %d nodes", len(vs)))
}

// watchOffer polls every branch while the prompt for vs waits, as an idle
// poll does, and withdraws the offer (cancels the prompt) as soon as a
// node's branch moved: its READY was replaced. It returns why it withdrew
// it ("" while it has not) and a channel closed when it stopped, which it
// does when ctx ends. A failed poll withdraws nothing: the re-check after
// the phrase fetches again.
func (w *Watcher) watchOffer(ctx context.Context, withdraw func(), vs []*nodeView) (func() string, <-chan struct{}) {
	var mu sync.Mutex
	reason := ""
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(w.Policy.Poll.TXInterval.Duration)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			commits, err := w.trackingCommits(ctx)
			if err != nil {
				continue
			}
			for _, v := range vs {
				if c := commits[v.node.ResultBranch]; c != v.commit {
					mu.Lock()
					reason = fmt.Sprintf("node %s's branch %s moved from %s to %s: its READY was replaced", v.node.Name, v.node.ResultBranch, short(v.commit), short(c))
					mu.Unlock()
					withdraw()
					return
				}
			}
		}
	}()
	return func() string { mu.Lock(); defer mu.Unlock(); return reason }, done
}

// recheckNodes fetches every node's branch again and repeats every check
// for every node; it returns the record, or every reason not to write it.
func (w *Watcher) recheckNodes(ctx context.Context, cur *task.Task, shown []NodeBinding, params TXParams) (Record, error) {
	vs, errs := checkNodes(ctx, w.mirror, w.src, cur.ID, shown, w.now(), 0, &w.st)
	if errs != nil {
		return Record{}, errs
	}
	now := w.now()
	expires, _ := w.nodesUntil(vs, time.Duration(params.DurationS)*time.Second)
	if !expires.After(now) {
		return Record{}, fmt.Errorf("remaining-time: the record would expire at once: the nodes' capture time left is not enough for the transmission (%d s) plus min_remaining_s (%d s) within the publication age limit",
			params.DurationS, w.Policy.Limits.MinRemainingS)
	}
	captureEnds := gate.CaptureEnd(vs[0].r)
	for _, v := range vs[1:] {
		if e := gate.CaptureEnd(v.r); e.Before(captureEnds) {
			captureEnds = e
		}
	}
	return Record{
		RecordVersion: RecordVersion, TaskID: cur.ID,
		ResultBranch: shown[0].ResultBranch, ResultCommit: shown[0].ResultCommit, ResultSHA256: setDigest(shown),
		CaptureEndsAt: captureEnds, AuthorizedAt: now, ExpiresAt: expires,
		TX: params, Nodes: shown,
	}, nil
}

// checkNodes is the one re-check of a set of nodes' READYs, for tx watch
// after the phrase and tx execute before hardware: one fetch of every
// node's branch, then for each node its tip, digest and signer must be
// the ones bound, and its READY must pass every PROTOCOL#main-pc check (extra: the
// capture time tx execute needs on top), the task not being over. It
// returns every node's view, or every problem of every node.
func checkNodes(ctx context.Context, m *mirror.Mirror, base Source, taskID string, bound []NodeBinding, now time.Time, extra time.Duration, st *state.TX) ([]*nodeView, error) {
	var errs *multierror.Error
	add := func(err error) { errs = multierror.Append(errs, err) }
	pol := base.Policy
	branches := make([]string, len(bound))
	for i, b := range bound {
		branches[i] = b.ResultBranch
	}
	if _, err := m.FetchBranchesUpdated(ctx, pol.Repo.Remote, branches); err != nil {
		return nil, fmt.Errorf("re-fetching the nodes' branches: %w", err)
	}
	var vs []*nodeView
	for _, b := range bound {
		n, ok := policyNode(pol, b.Node)
		if !ok || n.ResultBranch != b.ResultBranch {
			add(fmt.Errorf("node %s: the policy's [[nodes]] no longer reads it from branch %s", b.Node, b.ResultBranch))
			continue
		}
		src := base.ForNode(n)
		commit, err := m.ResolveCommit(ctx, taskfetch.TrackingRef(pol, n.ResultBranch))
		if err != nil {
			add(fmt.Errorf("node %s: %w", b.Node, err))
			continue
		}
		v, err := readNode(ctx, src, commit, now)
		if err != nil {
			add(err)
			continue
		}
		if commit != b.ResultCommit {
			add(fmt.Errorf("node %s: branch %s is at %s, the READY was authorized at %s", b.Node, b.ResultBranch, commit, b.ResultCommit))
			// And what came since, by name: a COMPLETE between the two.
			if l, err := src.look(ctx, commit, b.ResultCommit); err != nil {
				add(fmt.Errorf("node %s: %w", b.Node, err))
			} else if err := l.overIn(taskID); err != nil {
				add(fmt.Errorf("node %s: %w", b.Node, err))
			}
		}
		if v.snap.Digest != b.ResultSHA256 {
			add(fmt.Errorf("node %s: RX_RESULT.json has sha256 %s, the READY authorized has %s", b.Node, orNone(v.snap.Digest), b.ResultSHA256))
		}
		if got := signerFingerprint(v.signer); v.bad == nil && got != b.ResultSigner {
			add(fmt.Errorf("node %s: the result is signed by %s, not by %s", b.Node, orNobody(got), orNobody(b.ResultSigner)))
		}
		if v.bad != nil {
			add(fmt.Errorf("node %s: %w", b.Node, v.bad))
			continue
		}
		if err := readyProblems(completedError(st, v.r), gate.CheckReadyFor(v.r, now, taskID, pol, extra), src.CheckSigned(v.signer, v.r)); err != nil {
			for _, e := range flatten(err) {
				add(fmt.Errorf("node %s: %w", b.Node, e))
			}
		}
		vs = append(vs, v)
	}
	if errs != nil {
		errs.ErrorFormat = errlist.Format
		return nil, errs
	}
	return vs, nil
}

// writeCollection writes the task's SigMF Collection once every node of
// its RX_NODES has published COMPLETE (PROTOCOL#several-nodes), when it is not
// there yet; a collection that cannot be built (a node's COMPLETE without
// a metadata digest) is reported once, naming the node, and not written.
func (w *Watcher) writeCollection(cur *task.Task) error {
	path := sigmf.CollectionPath(w.Policy.StatePath(), cur.ID)
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	var streams []sigmf.Stream
	for _, name := range cur.Nodes.Names() {
		s := sigmf.Stream{Node: name}
		if d := w.views[name].nf.SigMFMetaSHA512; d != nil {
			s.MetaSHA512 = *d
		}
		streams = append(streams, s)
	}
	written, err := sigmf.WriteCollection(w.Policy.StatePath(), cur.ID, cur.Title, streams)
	if err != nil {
		w.rep.once("collection:"+cur.ID+":"+err.Error(), "task %s: every node published CAPTURE_COMPLETE, but no collection was written:\n%v", cur.ID, err)
		return nil
	}
	w.rep.printf("task %s: every node published CAPTURE_COMPLETE; collection %s", cur.ID, written)
	return nil
}

// nodesFile, in the state directory, is what tx watch last read of each
// node for the current several-node task: tx status shows it without git.
const nodesFile = "tx_nodes.json"

// NodesStatus is nodesFile: the task and each node of its RX_NODES.
type NodesStatus struct {
	TaskID string       `json:"task_id"`
	SeenAt time.Time    `json:"seen_at"`
	Nodes  []NodeStatus `json:"nodes"`
}

// NodeStatus is one node's state for the task: the state of its result
// for it (RX_READY_FOR_TX, CAPTURE_COMPLETE),
// "waiting" (nothing for this task on its branch yet) or "refused".
type NodeStatus struct {
	Node   string `json:"node"`
	Branch string `json:"branch"`
	Commit string `json:"commit"`
	State  string `json:"state"`
	Detail string `json:"detail"`
}

// saveNodes records the nodes' states for tx status.
func (w *Watcher) saveNodes(cur *task.Task, now time.Time, refusedBy map[string]string) error {
	ns := NodesStatus{TaskID: cur.ID, SeenAt: now, Nodes: []NodeStatus{}}
	for _, name := range cur.Nodes.Names() {
		s := NodeStatus{Node: name, State: "waiting"}
		if n, ok := policyNode(w.Policy, name); ok {
			s.Branch = n.ResultBranch
		}
		v := w.views[name]
		switch {
		case refusedBy[name] != "":
			s.State, s.Detail = "refused", refusedBy[name]
		case v != nil && v.r != nil && v.r.TaskID == cur.ID:
			s.State = string(v.r.State)
		case v != nil && v.bad != nil:
			s.Detail = v.bad.Error()
		case v != nil && v.r != nil:
			s.Detail = "its result is for task " + v.r.TaskID
		}
		if v != nil {
			s.Commit = v.commit
		}
		ns.Nodes = append(ns.Nodes, s)
	}
	return state.WriteJSON(w.Policy.StatePath(nodesFile), ns)
}

// readNodes reads nodesFile; nil when there is none (a single-node lab).
func readNodes(pol config.Policy) (*NodesStatus, error) {
	var ns NodesStatus
	ok, err := state.ReadJSON(pol.StatePath(nodesFile), &ns)
	if !ok || err != nil {
		return nil, err
	}
	return &ns, nil
}
