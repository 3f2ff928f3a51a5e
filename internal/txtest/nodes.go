package txtest

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
)

// NodeTaskID is the task of a Nodes world.
const NodeTaskID = "RX_NODES_0001"

// Nodes turns an Env into several receivers (PROTOCOL#several-nodes): a
// task naming them and one branch per node on the remote, each listed in
// the policy's [[nodes]].
type Nodes struct {
	Env   *Env
	Names []string
	pids  int64
}

// NewNodes adds the nodes names to e (its remote, its task and its policy).
func NewNodes(t testing.TB, e *Env, names ...string) *Nodes {
	t.Helper()
	for _, n := range names {
		gittest.Seed(t, e.F.Remote, n, map[string]string{"README.md": "node " + n + "\n"})
		e.Pol.Nodes = append(e.Pol.Nodes, config.MainNode{Name: n, ResultBranch: n})
	}
	s := tasktest.Capture(NodeTaskID)
	s.RXNodes = strings.Join(names, ", ")
	s.ExpectedHead = gittest.Tip(t, e.F.Remote, tasktest.TaskBranch)
	gittest.Seed(t, e.F.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(s)})
	return &Nodes{Env: e, Names: names}
}

// Ready is a node READY for the node task published at now (capture
// started 30 s before).
func (e *Nodes) Ready(now time.Time) *result.Result {
	r := Ready(now)
	r.TaskID = NodeTaskID
	e.pids++
	r.CapturePID = 4000 + e.pids
	return r
}

// CompleteOf turns a READY into the COMPLETE of the same capture.
func CompleteOf(r *result.Result) *result.Result {
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

// Encode is r as node's RX_RESULT.json.
func (e *Nodes) Encode(t *testing.T, r *result.Result, node string, metaSHA512 *string) []byte {
	t.Helper()
	data, err := result.EncodeNode(r, result.NodeFields{Node: node, SigMFMetaSHA512: metaSHA512})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Publish commits r as node's result on its branch, signed with key when
// key is set.
func (e *Nodes) Publish(t *testing.T, node string, r *result.Result, key string) (commit, digest string) {
	t.Helper()
	data := e.Encode(t, r, node, nil)
	files := map[string]string{tasktest.ResultPath: string(data)}
	if key != "" {
		return faultkit.SignedSeed(t, e.Env.F.Remote, node, files, key), result.SHA256(data)
	}
	return gittest.Seed(t, e.Env.F.Remote, node, files), result.SHA256(data)
}

// Schedule gives the node task START_AT startAt and SYNC_MODE mode, with
// CAPTURE_DURATION_S the policy's planned duration (PROTOCOL#task-file),
// as a new commit on the task branch.
func (e *Nodes) Schedule(t testing.TB, mode result.SyncMode, startAt time.Time) {
	t.Helper()
	s := tasktest.Capture(NodeTaskID)
	s.RXNodes = strings.Join(e.Names, ", ")
	schedule(&s, mode, startAt, int64(e.Env.Pol.Limits.PlannedDurationS))
	s.ExpectedHead = gittest.Tip(t, e.Env.F.Remote, tasktest.TaskBranch)
	gittest.Seed(t, e.Env.F.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(s)})
}

// ScheduledStart is a START_AT for a READY published at now: the whole
// second at which its capture (started 30 s before now) began.
func ScheduledStart(now time.Time) time.Time {
	return now.Add(-30 * time.Second).UTC().Truncate(time.Second)
}

// Aligned is the alignment of a node that started on startAt as mode
// does it, within bound: in PPS on startAt's edge, the trigger honoured.
func Aligned(mode result.SyncMode, startAt time.Time, bound time.Duration) *result.Alignment {
	a := &result.Alignment{SyncMode: mode, StartAt: startAt, FirstSampleAt: startAt.Add(bound / 2),
		Trigger: result.TriggerNotUsed, Bound: bound, BoundBasis: "test: " + string(mode), Aligned: true}
	if mode == result.SyncPPS {
		a.EdgeAt, a.Trigger = new(startAt), result.TriggerHonoured
	}
	return a
}
