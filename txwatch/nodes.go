package txwatch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/gate/txgate"
	"rfhandoff/gitcli"
	"rfhandoff/result"
	"rfhandoff/resultfetch"
	"rfhandoff/sigmf"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// nodeView is what tx watch read at a branch's tip (PROTOCOL#several-nodes).
type nodeView struct {
	node       config.MainNode
	commit     string
	snap       resultfetch.Snapshot
	r          *result.Result
	nf         result.NodeFields
	signer     *gitcli.Signature
	bad        error // the tip holds no usable result: refused, or no file
	unreadable bool  // bad is a file too large or not a regular file
}

// SetDigest is a record's result_sha256: a single receiver's RX_RESULT.json
// SHA-256, else the SHA-256 of "<node> <branch> <commit> <sha256> <signer>\n"
// per node, in order (signer "-" when none was required).
func SetDigest(nodes []NodeBinding) string {
	if len(nodes) == 1 && nodes[0].Node == "" {
		return nodes[0].ResultSHA256
	}
	var b strings.Builder
	for _, n := range nodes {
		fmt.Fprintf(&b, "%s %s %s %s %s\n", n.Node, n.ResultBranch, n.ResultCommit, n.ResultSHA256, cmp.Or(n.ResultSigner, "-"))
	}
	return result.SHA256([]byte(b.String()))
}

func PolicyNode(pol config.Policy, name string) (config.MainNode, bool) {
	for _, n := range pol.Nodes {
		if n.Name == name {
			return n, true
		}
	}
	return config.MainNode{}, false
}

// readNode reads a receiver's result at its branch's tip commit. An error
// is operational (retried); a refusal is the view's bad.
func readNode(ctx context.Context, src resultfetch.Source, commit string, now time.Time) (*nodeView, error) {
	v := &nodeView{node: src.Node, commit: commit}
	of := "" // the single receiver's messages name no node
	if src.Node.Name != "" {
		of = " of node " + src.Node.Name
	}
	v.node.ResultBranch = src.Branch() // the single receiver's too (bindingsOf)
	snap, err := src.ReadResult(ctx, commit)
	switch {
	case errors.Is(err, gitcli.ErrUnreadableFile):
		v.bad, v.unreadable = err, true
		return v, nil
	case err != nil:
		return nil, fmt.Errorf("reading %s at %s%s: %w", src.ResultPath(), commit, of, err)
	case snap.Data == nil:
		v.bad = fmt.Errorf("no %s on branch %s at commit %s yet", src.ResultPath(), src.Branch(), short(commit))
		return v, nil
	}
	v.snap = snap
	signer, err := src.VerifyResult(ctx, snap, now)
	if resultfetch.NotSpeaking(err) {
		v.bad = fmt.Errorf("no valid result on branch %s now: %w", src.Branch(), err)
		return v, nil
	}
	if err != nil {
		return nil, fmt.Errorf("verifying the signature of %s at %s%s: %w", src.ResultPath(), short(commit), of, err)
	}
	v.signer = signer
	if v.r, v.nf, err = src.DecodeNode(snap); err != nil {
		v.bad = err
	}
	return v, nil
}

// pollNodes reads each [[nodes]] branch whose tip moved and, when one
// did, judges the current task's nodes together.
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
			l, err := src.Look(ctx, c, since)
			if err != nil {
				return err
			}
			w.reportLook(n.ResultBranch, l, l.Record(&w.st))
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
			// A node's COMPLETE ends the task's transmission (PROTOCOL#trust).
			w.st.MarkCompleted(v.r.TaskID, c)
		}
		w.views[n.Name], changed = v, append(changed, n.Name)
	}
	if len(changed) == 0 {
		return nil
	}
	// Saved before anything is judged; if not, the next poll reads again.
	if err := state.SaveTX(w.Policy.StatePath(), w.st); err != nil {
		for _, name := range changed {
			delete(w.views, name)
		}
		return err
	}
	return w.judgeNodes(ctx)
}

// judgeNodes sets the nodes' views against the current task: one offer
// when every node of its RX_NODES has a READY that passes on its own.
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
		n, ok := PolicyNode(w.Policy, name)
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
			if err := judgeReady(w.src.ForNode(n), v, cur, now, 0, &w.st); err != nil {
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

	bindings, msg := bindingsOf(ready), ""
	switch {
	case len(refused) > 0:
		msg = fmt.Sprintf("task %s: no offer (one phrase needs every node READY):\n%s", cur.ID, strings.Join(refused, "\n"))
	case len(ready) > 0 && len(waiting) > 0:
		msg = fmt.Sprintf("task %s: READY from %s; waiting for %s", cur.ID, strings.Join(NodeNames(bindings), ", "), strings.Join(waiting, ", "))
	case len(waiting) > 0:
		msg = fmt.Sprintf("task %s: waiting for %s", cur.ID, strings.Join(waiting, ", "))
	}
	if msg != "" {
		w.rep.once("nodes:"+msg, "%s", msg)
		return nil
	}
	set := SetDigest(bindings)
	if w.st.Shown(set) || !w.clockAllows(ctx, "set:"+set, fmt.Sprintf("task %s: every node's READY", cur.ID)) {
		return nil
	}
	// As for one result: recorded as shown before it is shown.
	w.st.MarkShown(set, now)
	if err := state.SaveTX(w.Policy.StatePath(), w.st); err != nil {
		delete(w.st.ShownResultDigests, set)
		return err
	}
	return w.authorize(ctx, cur, ready)
}

// judgeReady is every check of v as cur's READY (PROTOCOL#main-pc,
// PROTOCOL#several-nodes), every reason at once.
func judgeReady(src resultfetch.Source, v *nodeView, cur *task.Task, now time.Time, extra time.Duration, st *state.TX) error {
	forTask := src.Policy.ForTask(cur.Capture.DurationS)
	r, decodeErr := src.DecodeFor(v.snap, cur)
	var aligned error
	if decodeErr == nil {
		aligned = txgate.CheckAlignment(r, cur.Capture.StartAt, forTask.Limits)
	}
	return readyProblems(decodeErr, resultfetch.CompletedError(st, v.r), txgate.CheckReadyFor(v.r, now, cur.ID, forTask, extra),
		src.CheckSigned(v.signer, v.r, forTask.Limits), aligned)
}

func bindingsOf(vs []*nodeView) []NodeBinding {
	out := make([]NodeBinding, len(vs))
	for i, v := range vs {
		out[i] = NodeBinding{Node: v.node.Name, ResultBranch: v.node.ResultBranch, ResultCommit: v.commit,
			ResultSHA256: v.snap.Digest, ResultSigner: resultfetch.Fingerprint(v.signer)}
	}
	return out
}

// nodesUntil is the earliest ReadyUntil of vs, and whose it is.
func (w *Watcher) nodesUntil(cur *task.Task, vs []*nodeView, extra time.Duration) (time.Time, *nodeView) {
	pol := w.Policy.ForTask(cur.Capture.DurationS)
	until := func(v *nodeView) time.Time { return txgate.ReadyUntil(v.r, pol, extra) }
	who := slices.MinFunc(vs, func(a, b *nodeView) int { return until(a).Compare(until(b)) })
	return until(who), who
}

// alignmentCells are a scheduled READY's sync and bound as the offer shows them.
func alignmentCells(a *result.Alignment) (sync, bound string) {
	if a == nil {
		return "-", "-"
	}
	sync = string(a.SyncMode)
	if a.EdgeAt != nil {
		sync += " edge " + a.EdgeAt.UTC().Format(time.RFC3339)
	}
	return sync, result.FormatSeconds(a.Bound) + " s"
}

// watchOffer polls while the prompt for vs waits and withdraws the offer
// (cancels ctx) when a node's branch moved, saying why; stop ends it. A
// failed poll withdraws nothing: the re-check fetches again.
func (w *Watcher) watchOffer(parent context.Context, vs []*nodeView) (ctx context.Context, why func() string, stop func()) {
	ctx, withdraw := context.WithCancel(parent)
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
	why = func() string { mu.Lock(); defer mu.Unlock(); return reason }
	return ctx, why, func() {
		withdraw()
		<-done
	}
}

// recheck repeats every check after a fresh fetch; it returns the record.
func (w *Watcher) recheck(ctx context.Context, cur *task.Task, shown []NodeBinding, params TXParams) (Record, error) {
	_, vs, _, err := checkBindings(ctx, w.src, cur.ID, shown, shownWords, w.now(), 0, &w.st)
	if err != nil {
		return Record{}, err
	}
	now := w.now()
	expires, first := w.nodesUntil(cur, vs, time.Duration(params.DurationS)*time.Second)
	if !expires.After(now) {
		who := ""
		if first.node.Name != "" {
			who = " (node " + first.node.Name + "'s)"
		}
		return Record{}, fmt.Errorf("remaining-time: the record would expire at once: %s of capture left%s is not enough for the transmission (%d s) plus min_remaining_s (%d s) within the publication age limit",
			txgate.Remaining(first.r, now).Truncate(time.Second), who, params.DurationS, w.Policy.Limits.MinRemainingS)
	}
	ends := func(v *nodeView) time.Time { return txgate.CaptureEnd(v.r) }
	captureEnds := ends(slices.MinFunc(vs, func(a, b *nodeView) int { return ends(a).Compare(ends(b)) }))
	return NewRecord(cur.ID, shown, captureEnds, now, expires, params), nil
}

// checkBindings is the one re-check of the READYs bound, for tx watch after
// the phrase and tx execute before hardware: each tip, digest and signer
// must be the ones bound, each READY must pass every PROTOCOL#main-pc check
// (extra: capture time needed on top), and RX_NODES must be the nodes
// bound. tips are the commits fetched.
func checkBindings(ctx context.Context, base resultfetch.Source, taskID string, bound []NodeBinding, single recheckWords, now time.Time, extra time.Duration, st *state.TX) (cur *task.Task, vs []*nodeView, tips []string, err error) {
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	pol := base.Policy
	branches := make([]string, len(bound))
	for i, b := range bound {
		branches[i] = b.ResultBranch
	}
	if _, err := base.Git.FetchBranchesUpdated(ctx, pol.Repo.Remote, branches); err != nil {
		// A list of one, so that a caller flattening it keeps the words.
		return nil, nil, nil, errlist.List(fmt.Errorf("re-fetching the result branch: %w", err))
	}
	cur, err = base.CurrentTask(ctx)
	if err != nil {
		add(fmt.Errorf("reading the current task: %w", err))
	} else if got, want := cur.Nodes.String(), strings.Join(NodeNames(bound), ", "); got != want {
		add(fmt.Errorf("the current task's RX_NODES is %q, the record binds %q", got, want))
	}
	for _, b := range bound {
		who, src, words := "", base, single
		if b.Node != "" {
			who, words = "node "+b.Node+": ", nodeWords
			n, ok := PolicyNode(pol, b.Node)
			if !ok || n.ResultBranch != b.ResultBranch {
				add(fmt.Errorf("%sthe policy's [[nodes]] no longer reads it from branch %s", who, b.ResultBranch))
				continue
			}
			src = base.ForNode(n)
		}
		commit, err := base.Git.ResolveCommit(ctx, taskfetch.TrackingRef(pol, b.ResultBranch))
		if err != nil {
			add(fmt.Errorf("%s%w", who, err))
			continue
		}
		tips = append(tips, commit)
		v, err := readNode(ctx, src, commit, now)
		if err != nil {
			add(err)
			continue
		}
		if commit != b.ResultCommit {
			add(errors.New(who + fmt.Sprintf(words.moved, b.ResultCommit, commit, b.ResultBranch)))
			// And what came since, by name: a COMPLETE between the two (PROTOCOL#trust).
			if l, err := src.Look(ctx, commit, b.ResultCommit); err != nil {
				add(fmt.Errorf("%s%w", who, err))
			} else if err := l.OverIn(taskID); err != nil {
				add(fmt.Errorf("%s%w", who, err))
			}
		}
		if v.snap.Digest != b.ResultSHA256 {
			add(errors.New(who + fmt.Sprintf(words.digest, b.ResultSHA256, cmp.Or(v.snap.Digest, "no file"))))
		}
		if got := resultfetch.Fingerprint(v.signer); v.bad == nil && got != b.ResultSigner {
			add(errors.New(who + fmt.Sprintf(words.signer, OrNobody(b.ResultSigner), OrNobody(got))))
		}
		if v.bad != nil && b.Node == "" && resultfetch.NotSpeaking(v.bad) {
			add(fmt.Errorf("result signature: %w", errors.Unwrap(v.bad)))
			continue
		}
		if v.bad != nil {
			add(fmt.Errorf("%s%w", who, v.bad))
			continue
		}
		if cur != nil {
			// The signer is checked with the allowed signers in force now: a
			// key removed since the authorization no longer counts.
			if err := judgeReady(src, v, cur, now, extra, st); err != nil {
				for _, e := range errlist.Flatten(err) {
					add(fmt.Errorf("%s%w", who, e))
				}
			}
		}
		vs = append(vs, v)
	}
	if err := errlist.List(errs...); err != nil {
		return nil, nil, tips, err
	}
	return cur, vs, tips, nil
}

// CheckRecord is tx execute's re-check of rec (PROTOCOL#main-pc step 3),
// with the whole transmission as the capture time still needed.
func CheckRecord(ctx context.Context, src resultfetch.Source, rec Record, now time.Time, st *state.TX) (cur *task.Task, tips []string, err error) {
	cur, _, tips, err = checkBindings(ctx, src, rec.TaskID, rec.Nodes, recordWords, now, time.Duration(src.Policy.TX.DurationS)*time.Second, st)
	return cur, tips, err
}

// recheckWords word a tip, digest or signer that is not the one bound
// (args: what was bound, what was found, the branch).
type recheckWords struct{ moved, digest, signer string }

var (
	shownWords = recheckWords{
		moved:  "the result branch moved from %[1]s to %[2]s after the result was shown",
		digest: "RX_RESULT.json changed after it was shown (sha256 %[1]s, now %[2]s)",
		signer: "the result is now signed by %[2]s, not by %[1]s as shown",
	}
	recordWords = recheckWords{
		moved:  "the result branch is at %[2]s, the record was authorized for %[1]s",
		digest: "RX_RESULT.json has sha256 %[2]s, the record was authorized for %[1]s",
		signer: "the result is signed by %[2]s, the record was authorized for %[1]s",
	}
	// After "node <name>: ", for both commands.
	nodeWords = recheckWords{
		moved:  "branch %[3]s is at %[2]s, the READY was authorized at %[1]s",
		digest: "RX_RESULT.json has sha256 %[2]s, the READY authorized has %[1]s",
		signer: "the result is signed by %[2]s, not by %[1]s",
	}
)

func NodeNames(bound []NodeBinding) []string {
	var out []string
	for _, b := range bound {
		if b.Node != "" {
			out = append(out, b.Node)
		}
	}
	return out
}

// writeCollection writes the task's SigMF Collection once every node
// published COMPLETE (PROTOCOL#several-nodes).
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

// nodesFile lets tx status show the nodes without git.
const nodesFile = "tx_nodes.json"

type NodesStatus struct {
	TaskID string       `json:"task_id"`
	SeenAt time.Time    `json:"seen_at"`
	Nodes  []NodeStatus `json:"nodes"`
}

// NodeStatus.State is its result's state for the task, "waiting" or "refused".
type NodeStatus struct {
	Node   string `json:"node"`
	Branch string `json:"branch"`
	Commit string `json:"commit"`
	State  string `json:"state"`
	Detail string `json:"detail"`
}

func (w *Watcher) saveNodes(cur *task.Task, now time.Time, refusedBy map[string]string) error {
	ns := NodesStatus{TaskID: cur.ID, SeenAt: now, Nodes: []NodeStatus{}}
	for _, name := range cur.Nodes.Names() {
		s := NodeStatus{Node: name, State: "waiting"}
		if n, ok := PolicyNode(w.Policy, name); ok {
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

// readNodes reads nodesFile; nil when there is none.
func readNodes(pol config.Policy) (*NodesStatus, error) {
	var ns NodesStatus
	ok, err := state.ReadJSON(pol.StatePath(nodesFile), &ns)
	if !ok || err != nil {
		return nil, err
	}
	return &ns, nil
}
