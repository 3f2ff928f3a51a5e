package txwatch

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/internal/txtest"
	"rfhandoff/result"
	"rfhandoff/sigmf"
)

// nodeEnv is env with a task naming its receivers and one branch per node
// on the remote, each listed in the policy's [[nodes]] (PROTOCOL#several-nodes).
type nodeEnv struct {
	*env
	nodes []string
	pids  int64
}

const nodeTaskID = "RX_NODES_0001"

func newNodeEnv(t testing.TB, nodes ...string) *nodeEnv {
	t.Helper()
	e := &nodeEnv{env: newEnv(t), nodes: nodes}
	for _, n := range nodes {
		gittest.Seed(t, e.f.Remote, n, map[string]string{"README.md": "node " + n + "\n"})
		e.pol.Nodes = append(e.pol.Nodes, config.MainNode{Name: n, ResultBranch: n})
	}
	s := tasktest.Capture(nodeTaskID)
	s.RXNodes = strings.Join(nodes, ", ")
	s.ExpectedHead = gittest.Tip(t, e.f.Remote, tasktest.TaskBranch)
	gittest.Seed(t, e.f.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(s)})
	return e
}

// ready is a node READY for the node task published at now (capture
// started 30 s before).
func (e *nodeEnv) ready(now time.Time) *result.Result {
	r := txtest.Ready(now)
	r.TaskID = nodeTaskID
	e.pids++
	r.CapturePID = 4000 + e.pids
	return r
}

// completeOf turns a READY into the COMPLETE of the same capture.
func completeOf(r *result.Result) *result.Result {
	r.State = result.StateComplete
	r.RXReadyForTX, r.ProcessAlive, r.FileGrowing = false, false, false
	r.CaptureEndedAt = new(r.PublishedAt.UTC())
	r.CaptureExitCode = new(int64(0))
	r.CaptureSizeBytes = new(int64(0))
	r.CaptureDurationS = new(1.0)
	r.CaptureSHA256 = new(result.SHA256(nil))
	r.DroppedFrames = new(int64(0))
	r.ClkinAfter = new(result.ClkinNotDetected)
	r.RFTXObserved = new(result.RFTXUnknown)
	return r
}

func (e *nodeEnv) encode(t *testing.T, r *result.Result, node string, metaSHA512 *string) []byte {
	t.Helper()
	data, err := result.EncodeNode(r, result.NodeFields{Node: node, SigMFMetaSHA512: metaSHA512})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// publish commits r as node's result on its branch, signed with key when
// key is set.
func (e *nodeEnv) publish(t *testing.T, node string, r *result.Result, key string) (commit, digest string) {
	t.Helper()
	data := e.encode(t, r, node, nil)
	files := map[string]string{tasktest.ResultPath: string(data)}
	if key != "" {
		return faultkit.SignedSeed(t, e.f.Remote, node, files, key), result.SHA256(data)
	}
	return gittest.Seed(t, e.f.Remote, node, files), result.SHA256(data)
}

func (e *nodeEnv) records(t *testing.T) []Record {
	t.Helper()
	var out []Record
	for _, name := range e.files(t) {
		if !strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".outcome.json") {
			continue
		}
		rec, err := e.store(t).ReadRecord(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// Three nodes READY: one table, one phrase, one record binding the three
// commits in RX_NODES order; tx execute then runs it once.
func TestNodesOneOfferForAll(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b", "rx-c")
	now := time.Now()
	want := map[string][2]string{}
	for _, n := range e.nodes {
		c, d := e.publish(t, n, e.ready(now), "")
		want[n] = [2]string{c, d}
	}
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{answers: []answer{{typed: gate.TXPhrase}}}
	stop := runWatcher(t, e.watcher(out, asker.open))
	waitFor(t, "the authorization", contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if asker.calls() != 1 {
		t.Fatalf("asked %d times, want once for all nodes", asker.calls())
	}
	for _, s := range []string{"one phrase for all 3", "node  signer  commit", "rx-a", "rx-b", "rx-c", "common clock"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the offer does not show %q:\n%s", s, out)
		}
	}
	recs := e.records(t)
	if len(recs) != 1 || len(recs[0].Nodes) != 3 {
		t.Fatalf("want one record binding three nodes, got %+v", recs)
	}
	rec := recs[0]
	for i, n := range e.nodes {
		b := rec.Nodes[i]
		if b.Node != n || b.ResultBranch != n || b.ResultCommit != want[n][0] || b.ResultSHA256 != want[n][1] {
			t.Errorf("node %d: %+v, want %s at %s sha256 %s", i, b, n, want[n][0], want[n][1])
		}
	}
	if rec.ResultSHA256 != setDigest(rec.Nodes) || rec.ResultCommit != want["rx-a"][0] {
		t.Errorf("record top level %s %s does not bind the set", rec.ResultCommit, rec.ResultSHA256)
	}

	xout := &gittest.SyncBuffer{}
	x := &Executor{Git: e.f.Git(e.r), Runner: e.r, Policy: e.pol, Out: xout,
		OpenAsker: (&scriptAsker{answers: []answer{{typed: gate.TXPhrase}}}).open}
	o, _, err := x.Execute(t.Context(), RecordName(rec.TaskID, rec.ResultSHA256))
	if err != nil || o.Action != config.TXActionFake || o.RFTX != 0 {
		t.Fatalf("tx execute of the three-node record: %+v, %v", o, err)
	}
	if !strings.Contains(xout.String(), "node rx-c: branch rx-c, result commit "+want["rx-c"][0]) {
		t.Errorf("tx execute does not show each node it executes for:\n%s", xout)
	}
}

// One node late: "waiting for rx-c" and no prompt until it is READY; when
// it comes after the first READY went stale, no offer either.
func TestNodesWaitingAndStale(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b", "rx-c")
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	e.publish(t, "rx-a", e.ready(now()), "")
	e.publish(t, "rx-b", e.ready(now()), "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{}
	w := e.watcher(out, asker.open)
	w.Now = now
	runWatcher(t, w)
	waitFor(t, "the waiting report", contains(out, "task "+nodeTaskID+": READY from rx-a, rx-b; waiting for rx-c"), out)
	if asker.calls() != 0 {
		t.Fatalf("asked for the phrase with rx-c not READY:\n%s", out)
	}
	// tx status shows each node's state for the task, without git.
	st, err := ReadStatus(e.pol, now())
	if err != nil {
		t.Fatal(err)
	}
	if st.Nodes == nil || st.Nodes.TaskID != nodeTaskID || len(st.Nodes.Nodes) != 3 ||
		st.Nodes.Nodes[0].State != string(result.StateReady) || st.Nodes.Nodes[1].State != string(result.StateReady) || st.Nodes.Nodes[2].State != "waiting" {
		t.Fatalf("tx status nodes: %+v", st.Nodes)
	}
	// rx-a's and rx-b's READYs go stale (older than max_publication_age_s),
	// then rx-c publishes a fresh one.
	mu.Lock()
	clock = clock.Add(time.Duration(e.pol.Limits.MaxPublicationAgeS+10) * time.Second)
	mu.Unlock()
	e.publish(t, "rx-c", e.ready(now()), "")
	waitFor(t, "the refusal", contains(out, "task "+nodeTaskID+": no offer"), out)
	if asker.calls() != 0 || len(e.records(t)) != 0 {
		t.Fatalf("offered with stale READYs:\n%s", out)
	}
	if s := out.String(); !strings.Contains(s, "rx-a: READY") || !strings.Contains(s, "publication") {
		t.Errorf("the refusal does not say rx-a's READY is stale:\n%s", s)
	}
}

// A node's READY replaced after the phrase: nothing written.
func TestNodesReplacedAfterPhrase(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	// No poll while the prompt waits, so the replacement is found by the
	// re-check after the phrase, not by the withdrawal at the prompt.
	e.pol.Poll.TXInterval = config.Duration{Duration: time.Hour}
	e.pol.Poll.MaxBackoff = config.Duration{Duration: time.Hour}
	now := time.Now()
	e.publish(t, "rx-a", e.ready(now), "")
	e.publish(t, "rx-b", e.ready(now), "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{answers: []answer{{typed: gate.TXPhrase, before: func() { e.publish(t, "rx-b", e.ready(time.Now()), "") }}}}
	runWatcher(t, e.watcher(out, asker.open))
	waitFor(t, "the block", contains(out, "BLOCKED after the phrase"), out)
	if s := out.String(); !strings.Contains(s, "node rx-b: branch rx-b is at") {
		t.Errorf("the block does not name rx-b's moved branch:\n%s", s)
	}
	if len(e.records(t)) != 0 {
		t.Fatalf("a record was written for a replaced READY: %v", e.files(t))
	}
}

// A node's READY replaced while the prompt waits withdraws the offer:
// the prompt is cancelled, nothing is written, and the new set (with
// the replacement) is offered afresh.
func TestNodesReplacedAtThePrompt(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	e.publish(t, "rx-a", e.ready(now), "")
	e.publish(t, "rx-b", e.ready(now), "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{} // nobody types: the prompt waits until cancelled
	runWatcher(t, e.watcher(out, asker.open))
	waitFor(t, "the prompt", func() bool { return asker.calls() == 1 }, out)
	e.publish(t, "rx-b", e.ready(time.Now()), "")
	waitFor(t, "the withdrawal", contains(out, "was withdrawn at the prompt (node rx-b's branch rx-b moved"), out)
	waitFor(t, "the new offer", func() bool { return asker.calls() == 2 }, out)
	if len(e.records(t)) != 0 {
		t.Fatalf("a record was written: %v", e.files(t))
	}
}

// With each node's result_signers, rx-b's key cannot speak for rx-a: a
// READY on rx-a's branch signed by rx-b's key is refused, no offer.
func TestNodesOwnSigners(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	keys := map[string]faultkit.SSHKey{}
	for i, n := range e.nodes {
		keys[n] = faultkit.NewSSHKey(t, n)
		path := filepath.Join(e.f.Main, "keys", n+".allowed")
		faultkit.WriteAllowedSigners(t, path, faultkit.SignerLine(n, keys[n], `namespaces="git"`))
		e.pol.Nodes[i].ResultSigners = path
	}
	now := time.Now()
	e.publish(t, "rx-a", e.ready(now), keys["rx-b"].Private)
	e.publish(t, "rx-b", e.ready(now), keys["rx-b"].Private)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{}
	runWatcher(t, e.watcher(out, asker.open))
	waitFor(t, "rx-a's refusal", contains(out, "node rx-a: result at commit"), out)
	waitFor(t, "the waiting report", contains(out, "READY from rx-b; waiting for rx-a"), out)
	if asker.calls() != 0 {
		t.Fatalf("offered with rx-a's READY signed by rx-b's key:\n%s", out)
	}
	// rx-a's own key makes its branch speak: one offer for both.
	e.publish(t, "rx-a", e.ready(time.Now()), keys["rx-a"].Private)
	waitFor(t, "the offer", func() bool { return asker.calls() == 1 }, out)
	if !strings.Contains(out.String(), keys["rx-a"].Fingerprint) {
		t.Errorf("the table does not show rx-a's signer:\n%s", out)
	}
}

// tx execute re-checks every node: one node's COMPLETE after the
// authorization blocks it, nothing run.
func TestNodesExecuteRefusesAfterComplete(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	e.publish(t, "rx-a", e.ready(now), "")
	e.publish(t, "rx-b", e.ready(now), "")
	out := &gittest.SyncBuffer{}
	stop := runWatcher(t, e.watcher(out, (&scriptAsker{answers: []answer{{typed: gate.TXPhrase}}}).open))
	waitFor(t, "the authorization", contains(out, "AUTHORIZED: record"), out)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	rec := e.records(t)[0]
	complete := completeOf(e.ready(now))
	gittest.Seed(t, e.f.Remote, "rx-b", map[string]string{tasktest.ResultPath: string(e.encode(t, complete, "rx-b", nil))})

	x := &Executor{Git: e.f.Git(e.r), Runner: e.r, Policy: e.pol, Out: &gittest.SyncBuffer{},
		OpenAsker: (&scriptAsker{answers: []answer{{typed: gate.TXPhrase}}}).open}
	name := RecordName(rec.TaskID, rec.ResultSHA256)
	_, _, err := x.Execute(t.Context(), name)
	if err == nil || !strings.Contains(err.Error(), "refused at "+StepRecheck) || !strings.Contains(err.Error(), "node rx-b") {
		t.Fatalf("tx execute with rx-b COMPLETE: %v, want refused at the re-check naming rx-b", err)
	}
	if used, _ := e.store(t).Used(name); used {
		t.Fatal("the record was marked used")
	}
	if slices.Contains(e.files(t), OutcomeName(name)) {
		t.Fatal("an outcome was written")
	}
}

// Every node COMPLETE with its metadata digest: the collection is written
// once, naming each node's recording with its digest, in RX_NODES order.
func TestNodesCollection(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	digests := map[string]string{"rx-a": strings.Repeat("a1", 64), "rx-b": strings.Repeat("b2", 64)}
	for _, n := range e.nodes {
		c := completeOf(e.ready(now))
		d := digests[n]
		gittest.Seed(t, e.f.Remote, n, map[string]string{tasktest.ResultPath: string(e.encode(t, c, n, &d))})
	}
	out := &gittest.SyncBuffer{}
	runWatcher(t, e.watcher(out, noTerminal))
	path := sigmf.CollectionPath(e.pol.StatePath(), nodeTaskID)
	waitFor(t, "the collection", contains(out, "collection "+path), out)
	version, streams := sigmftest.ReadCollection(t, path)
	if version != sigmf.CollectionVersion || len(streams) != 2 ||
		streams[0].Name != nodeTaskID+"-rx-a" || streams[0].Hash != digests["rx-a"] ||
		streams[1].Name != nodeTaskID+"-rx-b" || streams[1].Hash != digests["rx-b"] {
		t.Fatalf("collection %s: version %q, streams %+v", path, version, streams)
	}
}

// eightNodes is a watcher, its mirror open and one poll done, over eight
// node branches.
func eightNodes(t testing.TB) (*nodeEnv, *Watcher) {
	t.Helper()
	var nodes []string
	for i := range 8 {
		nodes = append(nodes, "rx-"+string(rune('a'+i)))
	}
	e := newNodeEnv(t, nodes...)
	w := e.watcher(&gittest.SyncBuffer{}, noTerminal)
	w.rep = newReporter(w.Out, "tx watch: ")
	if err := os.MkdirAll(e.pol.StatePath(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := w.openMirror(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := w.poll(t.Context()); err != nil {
		t.Fatal(err)
	}
	return e, w
}

// subprocesses counts the git processes the audit log saw start.
func subprocesses(t testing.TB, e *nodeEnv) (total, fetches int) {
	for k, n := range gitStarts(t, e.env) {
		total += n
		if k == "fetch" {
			fetches += n
		}
	}
	return total, fetches
}

// An idle poll of eight node branches is one subprocess: one git fetch
// for all of them (counted in the audit log).
func TestNodesIdlePollIsOneSubprocess(t *testing.T) {
	t.Parallel()
	e, w := eightNodes(t)
	total0, fetch0 := subprocesses(t, e)
	for range 3 {
		if err := w.poll(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	total, fetches := subprocesses(t, e)
	if fetches-fetch0 != 3 || total-total0 != 3 {
		t.Fatalf("three idle polls of 8 nodes ran %d processes, %d of them fetches; want three fetches and nothing else", total-total0, fetches-fetch0)
	}
}

// BenchmarkNodesIdlePoll reports the subprocesses of one idle poll of
// eight node branches (a count from the audit log, not a time): 1.
func BenchmarkNodesIdlePoll(b *testing.B) {
	e, w := eightNodes(b)
	total0, _ := subprocesses(b, e)
	for b.Loop() {
		if err := w.poll(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	total, _ := subprocesses(b, e)
	b.ReportMetric(float64(total-total0)/float64(b.N), "subprocesses/poll")
}

func sampleNodeRecord() Record {
	rec := sampleRecord()
	rec.Nodes = nil
	for i, n := range []string{"rx-a", "rx-b"} {
		rec.Nodes = append(rec.Nodes, NodeBinding{Node: n, ResultBranch: n,
			ResultCommit: strings.Repeat(string(rune('1'+i)), 40), ResultSHA256: strings.Repeat(string(rune('a'+i)), 64)})
	}
	rec.Nodes[1].ResultSigner = sampleFP
	rec.ResultBranch, rec.ResultCommit, rec.ResultSHA256 = "rx-a", rec.Nodes[0].ResultCommit, setDigest(rec.Nodes)
	return rec
}

// A several-node record round-trips; a single-node record binds one
// receiver without a node name; a record whose nodes do not match its top
// level, repeats a node or changes a node's digest is refused with every
// reason, each naming its key.
func TestNodeRecordStrict(t *testing.T) {
	rec := sampleNodeRecord()
	data, err := encodeRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseRecord(data)
	if err != nil || !slices.Equal(got.Nodes, rec.Nodes) {
		t.Fatalf("round trip: %+v, %v\n%s", got.Nodes, err, data)
	}
	single, err := encodeRecord(sampleRecord())
	if err != nil || strings.Contains(string(single), `"node"`) || !strings.Contains(string(single), `"nodes"`) {
		t.Fatalf("a single-node record is not one receiver without a node name (%v):\n%s", err, single)
	}

	bad := sampleNodeRecord()
	bad.Nodes[1].Node = "rx-a"                          // repeated
	bad.Nodes[0].ResultSHA256 = strings.Repeat("f", 64) // the set digest no longer matches
	raw, err := json.Marshal(bad)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseRecord(raw)
	var inv *invalidRecordError
	if !errors.As(err, &inv) {
		t.Fatalf("a tampered node record: %v, want refused", err)
	}
	keys := inv.Keys()
	for _, k := range []string{"nodes[1].node", "result_sha256"} {
		if !slices.Contains(keys, k) {
			t.Errorf("the refusal does not name %s: %v", k, err)
		}
	}
	bad = sampleNodeRecord()
	bad.ResultCommit = strings.Repeat("9", 40)
	raw, _ = json.Marshal(bad)
	if _, err := ParseRecord(raw); err == nil || !strings.Contains(err.Error(), "first node's branch and commit") {
		t.Errorf("a record whose commit is not its first node's: %v", err)
	}
}
