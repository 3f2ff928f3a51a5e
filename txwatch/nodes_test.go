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

// One node late: "waiting for rx-c" and no prompt until it is READY; when
// it comes after the first READY went stale, no offer either.
func TestNodesWaitingAndStale(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b", "rx-c")
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	e.Publish(t, "rx-a", e.Ready(now()), "")
	e.Publish(t, "rx-b", e.Ready(now()), "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{}
	w := e.watcher(out, opener(asker))
	w.Now = now
	txtest.Run(t, w)
	txtest.WaitFor(t, "the waiting report", txtest.Contains(out, "task "+txtest.NodeTaskID+": READY from rx-a, rx-b; waiting for rx-c"), out)
	if asker.Calls() != 0 {
		t.Fatalf("asked for the phrase with rx-c not READY:\n%s", out)
	}
	// tx status shows each node's state for the task, without git.
	st, err := ReadStatus(e.Pol, now())
	if err != nil {
		t.Fatal(err)
	}
	if st.Nodes == nil || st.Nodes.TaskID != txtest.NodeTaskID || len(st.Nodes.Nodes) != 3 ||
		st.Nodes.Nodes[0].State != string(result.StateReady) || st.Nodes.Nodes[1].State != string(result.StateReady) || st.Nodes.Nodes[2].State != "waiting" {
		t.Fatalf("tx status nodes: %+v", st.Nodes)
	}
	// rx-a's and rx-b's READYs go stale (older than max_publication_age_s),
	// then rx-c publishes a fresh one.
	mu.Lock()
	clock = clock.Add(time.Duration(e.Pol.Limits.MaxPublicationAgeS+10) * time.Second)
	mu.Unlock()
	e.Publish(t, "rx-c", e.Ready(now()), "")
	txtest.WaitFor(t, "the refusal", txtest.Contains(out, "task "+txtest.NodeTaskID+": no offer"), out)
	if asker.Calls() != 0 || len(e.records(t)) != 0 {
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
	e.Pol.Poll.TXInterval = config.Duration{Duration: time.Hour}
	e.Pol.Poll.MaxBackoff = config.Duration{Duration: time.Hour}
	now := time.Now()
	e.Publish(t, "rx-a", e.Ready(now), "")
	e.Publish(t, "rx-b", e.Ready(now), "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{Answers: []answer{{Typed: gate.TXPhrase, Before: func() { e.Publish(t, "rx-b", e.Ready(time.Now()), "") }}}}
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the block", txtest.Contains(out, "BLOCKED after the phrase"), out)
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
	e.Publish(t, "rx-a", e.Ready(now), "")
	e.Publish(t, "rx-b", e.Ready(now), "")
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{} // nobody types: the prompt waits until cancelled
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "the prompt", func() bool { return asker.Calls() == 1 }, out)
	e.Publish(t, "rx-b", e.Ready(time.Now()), "")
	txtest.WaitFor(t, "the withdrawal", txtest.Contains(out, "was withdrawn at the prompt (node rx-b's branch rx-b moved"), out)
	txtest.WaitFor(t, "the new offer", func() bool { return asker.Calls() == 2 }, out)
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
	for i, n := range e.Names {
		keys[n] = faultkit.NewSSHKey(t, n)
		path := filepath.Join(e.F.Main, "keys", n+".allowed")
		faultkit.WriteAllowedSigners(t, path, faultkit.SignerLine(n, keys[n], `namespaces="git"`))
		e.Pol.Nodes[i].ResultSigners = path
	}
	now := time.Now()
	e.Publish(t, "rx-a", e.Ready(now), keys["rx-b"].Private)
	e.Publish(t, "rx-b", e.Ready(now), keys["rx-b"].Private)
	out := &gittest.SyncBuffer{}
	asker := &scriptAsker{}
	txtest.Run(t, e.watcher(out, opener(asker)))
	txtest.WaitFor(t, "rx-a's refusal", txtest.Contains(out, "node rx-a: result at commit"), out)
	txtest.WaitFor(t, "the waiting report", txtest.Contains(out, "READY from rx-b; waiting for rx-a"), out)
	if asker.Calls() != 0 {
		t.Fatalf("offered with rx-a's READY signed by rx-b's key:\n%s", out)
	}
	// rx-a's own key makes its branch speak: one offer for both.
	e.Publish(t, "rx-a", e.Ready(time.Now()), keys["rx-a"].Private)
	txtest.WaitFor(t, "the offer", func() bool { return asker.Calls() == 1 }, out)
	if !strings.Contains(out.String(), keys["rx-a"].Fingerprint) {
		t.Errorf("the table does not show rx-a's signer:\n%s", out)
	}
}

// Every node COMPLETE with its metadata digest: the collection is written
// once, naming each node's recording with its digest, in RX_NODES order.
func TestNodesCollection(t *testing.T) {
	t.Parallel()
	e := newNodeEnv(t, "rx-a", "rx-b")
	now := time.Now()
	digests := map[string]string{"rx-a": strings.Repeat("a1", 64), "rx-b": strings.Repeat("b2", 64)}
	for _, n := range e.Names {
		c := txtest.CompleteOf(e.Ready(now))
		d := digests[n]
		gittest.Seed(t, e.F.Remote, n, map[string]string{tasktest.ResultPath: string(e.Encode(t, c, n, &d))})
	}
	out := &gittest.SyncBuffer{}
	txtest.Run(t, e.watcher(out, noTerminal))
	path := sigmf.CollectionPath(e.Pol.StatePath(), txtest.NodeTaskID)
	txtest.WaitFor(t, "the collection", txtest.Contains(out, "collection "+path), out)
	version, streams := sigmftest.ReadCollection(t, path)
	if version != sigmf.CollectionVersion || len(streams) != 2 ||
		streams[0].Name != txtest.NodeTaskID+"-rx-a" || streams[0].Hash != digests["rx-a"] ||
		streams[1].Name != txtest.NodeTaskID+"-rx-b" || streams[1].Hash != digests["rx-b"] {
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
	if err := os.MkdirAll(e.Pol.StatePath(), 0o700); err != nil {
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
	for k, n := range e.GitStarts(t) {
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
	rec.ResultBranch, rec.ResultCommit, rec.ResultSHA256 = "rx-a", rec.Nodes[0].ResultCommit, SetDigest(rec.Nodes)
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
