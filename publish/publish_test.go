package publish_test

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"testing"

	"rfhandoff/gitcli"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
	"rfhandoff/result"
)

// TestPublishCommitsExactlyTheTwoFiles publishes a READY result and checks
// the commit on the remote: one new commit on the result branch, exactly
// the two files as regular 100644 blobs, RX_RESULT.json byte for byte as
// given, RX_RESULT.md rendered from it, and an Audit-Chain-Head trailer
// naming the audit log's head at the moment of the commit.
func TestPublishCommitsExactlyTheTwoFiles(t *testing.T) {
	tmp := privateTemp(t)
	f := publishtest.New(t, publishtest.Options{})
	before := f.ResultTip(t)
	snap := f.Snapshot(t)
	taskTip := bareGit(t, f, "rev-parse", "refs/heads/"+f.Policy.Repo.TaskBranch)
	r := f.Ready()
	data := publishtest.Encode(t, r)
	d := f.Deps()
	d.Notes = []string{"Quick-look: no burst yet."}

	out, err := publish.Publish(t.Context(), d, data)
	if err != nil {
		t.Fatal(err)
	}
	if out.NoOp || out.Attempts != 1 {
		t.Errorf("outcome = %+v, want a commit on attempt 1", out)
	}
	if tip := f.ResultTip(t); tip != out.Commit {
		t.Fatalf("result branch tip %s, outcome commit %s", tip, out.Commit)
	}
	if parent := strings.TrimSpace(bareGit(t, f, "rev-parse", out.Commit+"^")); parent != before {
		t.Errorf("commit's parent %s, want the previous tip %s", parent, before)
	}
	if got := bareGit(t, f, "rev-parse", "refs/heads/"+f.Policy.Repo.TaskBranch); got != taskTip {
		t.Errorf("task branch moved: %s -> %s", taskTip, got)
	}

	dir := f.Policy.Repo.ResultDir
	jsonPath, mdPath := path.Join(dir, publish.JSONName), path.Join(dir, publish.MarkdownName)
	raw := bareGit(t, f, "diff", "--raw", "--no-abbrev", "--no-renames", before, out.Commit)
	var changed []string
	for _, line := range strings.Split(strings.TrimSpace(raw), "\n") {
		meta, p, _ := strings.Cut(line, "\t")
		fields := strings.Fields(meta)
		if len(fields) != 5 || fields[0] != ":000000" || fields[1] != string(gitcli.ModeFile) || fields[4] != "A" {
			t.Errorf("change %q: want a new regular 100644 file", line)
		}
		changed = append(changed, p)
	}
	if strings.Join(changed, ",") != jsonPath+","+mdPath {
		t.Errorf("changed paths %q, want exactly %s and %s", changed, jsonPath, mdPath)
	}
	if got := bareGit(t, f, "cat-file", "blob", out.Commit+":"+jsonPath); got != string(data) {
		t.Errorf("RX_RESULT.json on the branch differs from the input bytes:\n%s", got)
	}
	if got, want := bareGit(t, f, "cat-file", "blob", out.Commit+":"+mdPath), string(result.RenderMarkdown(r, d.Notes...)); got != want {
		t.Errorf("RX_RESULT.md on the branch:\n%s\nwant:\n%s", got, want)
	}

	msg := bareGit(t, f, "log", "-1", "--format=%B", out.Commit)
	if !strings.HasPrefix(msg, "rx result: "+publishtest.TaskID+" RX_READY_FOR_TX\n") {
		t.Errorf("commit message %q", msg)
	}
	trailer := strings.TrimSpace(bareGit(t, f, "log", "-1", "--format=%(trailers:key="+publish.AuditTrailer+",valueonly)", out.Commit))
	// The head at commit time: the trailer names the last line before git
	// commit-tree's start, the end of writing the objects or of the commit
	// identity lookup (git config, read beside the object write).
	entries := auditEntries(t, f.Runner.AuditLog().Path())
	commitStart := -1
	for i, e := range entries {
		if e.Event == "start" && gitSub(e.Argv) == "commit-tree" {
			commitStart = i
		}
	}
	if commitStart < 1 {
		t.Fatal("no git commit-tree in the audit log")
	}
	named := -1
	for i := commitStart - 1; i >= 0; i-- {
		if entries[i].Hash == trailer {
			named = i
			break
		}
	}
	if named < 0 {
		t.Fatalf("%s trailer %q names no line before the commit", publish.AuditTrailer, trailer)
	}
	starts := map[string]string{}
	for _, e := range entries[:commitStart] {
		if e.Event == "start" {
			starts[e.ID] = gitSub(e.Argv)
		}
	}
	if sub := starts[entries[named].ID]; entries[named].Event != "end" || (sub != "unpack-objects" && sub != "config") {
		t.Errorf("trailer names %s of git %s, want the end of writing the objects (git unpack-objects) or of the identity lookup (git config)", entries[named].Event, sub)
	}
	for _, e := range entries[named+1 : commitStart] {
		t.Errorf("%s of git %s came between the trailer's line and the commit", e.Event, starts[e.ID])
	}
	unchanged(t, f, f.Refs(t), snap)
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("temporary clones left behind: %v", left)
	}
}

// TestRepublishIdenticalIsNoOp: the same bytes again change nothing and
// succeed; a different result (COMPLETE) then publishes on top.
func TestRepublishIdenticalIsNoOp(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	r := f.Ready()
	data := publishtest.Encode(t, r)
	first, err := publish.Publish(t.Context(), f.Deps(), data)
	if err != nil {
		t.Fatal(err)
	}
	refs := f.Refs(t)
	again, err := publish.Publish(t.Context(), f.Deps(), data)
	if err != nil {
		t.Fatal(err)
	}
	if !again.NoOp || again.Commit != first.Commit {
		t.Errorf("republish outcome %+v, want a no-op at %s", again, first.Commit)
	}
	if got := f.Refs(t); got != refs {
		t.Errorf("no-op republish changed the remote:\n%s\nwant:\n%s", got, refs)
	}

	c := completeFrom(r)
	next, err := publish.Publish(t.Context(), f.Deps(), publishtest.Encode(t, c))
	if err != nil {
		t.Fatal(err)
	}
	if next.NoOp || next.Commit == first.Commit {
		t.Errorf("COMPLETE outcome %+v, want a new commit", next)
	}
	if parent := strings.TrimSpace(bareGit(t, f, "rev-parse", next.Commit+"^")); parent != first.Commit {
		t.Errorf("COMPLETE commit's parent %s, want the READY commit %s", parent, first.Commit)
	}
}

// completeFrom turns a READY result into the matching COMPLETE one.
func completeFrom(r *result.Result) *result.Result {
	c := *r
	c.State = result.StateComplete
	c.RXReadyForTX, c.ProcessAlive, c.FileGrowing = false, false, false
	end := r.CaptureStartedAt.Add(120e9)
	code, size, dur, sum := int64(0), int64(480000000), 120.0, strings.Repeat("ab", 32)
	zero := int64(0)
	clk, obs := result.ClkinDetected, result.RFTXUnknown
	c.CaptureEndedAt, c.CaptureExitCode, c.CaptureSizeBytes, c.CaptureDurationS = &end, &code, &size, &dur
	c.CaptureSHA256, c.Overruns, c.DroppedFrames, c.ClkinAfter, c.RFTXObserved = &sum, &zero, &zero, &clk, &obs
	c.PublishedAt = end.Add(1e9)
	return &c
}

// asCheck returns the *publish.CheckError in err, failing the test if
// there is none or it is for another step.
func asCheck(t *testing.T, err error, step int) *publish.CheckError {
	t.Helper()
	var ce *publish.CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want a *publish.CheckError", err, err)
	}
	if ce.Step != step {
		t.Fatalf("refused by check %d, want check %d: %v", ce.Step, step, err)
	}
	return ce
}

// TestOversizedMarkdownRefused: notes that would push RX_RESULT.md over
// 64 KiB are refused before anything is committed.
func TestOversizedMarkdownRefused(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	refs, snap := f.Refs(t), f.Snapshot(t)
	d := f.Deps()
	d.Notes = []string{strings.Repeat("burst ", 11000)}
	_, err := publish.Publish(t.Context(), d, publishtest.Encode(t, f.Ready()))
	if err == nil || !strings.Contains(err.Error(), "docs/handoff/results/RX_RESULT.md would be ") ||
		!strings.HasSuffix(err.Error(), fmt.Sprintf(" bytes, more than the limit of %d", result.MaxBytes)) {
		t.Fatalf("error %v, want the RX_RESULT.md size refused against the %d-byte limit", err, result.MaxBytes)
	}
	unchanged(t, f, refs, snap)
}

// A prepared publish that is closed unused (a capture that was never
// confirmed) leaves no clone and no git call running; one that is used
// publishes once, and only once.
func TestPreparedPublish(t *testing.T) {
	tmp := privateTemp(t)
	f := publishtest.New(t, publishtest.Options{})
	refs := f.Refs(t)
	prep, err := publish.Prepare(t.Context(), f.Deps())
	if err != nil {
		t.Fatal(err)
	}
	prep.Close()
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("a prepared publish closed unused left clones: %v", left)
	}
	allEnded(t, f)
	if got := f.Refs(t); got != refs {
		t.Errorf("a prepared publish closed unused changed the remote:\n%s\nwant:\n%s", got, refs)
	}

	prep, err = publish.Prepare(t.Context(), f.Deps())
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close()
	data := publishtest.Encode(t, f.Ready())
	if out, err := prep.Publish(t.Context(), data); err != nil || out.NoOp {
		t.Fatalf("prepared publish: %+v, %v", out, err)
	}
	if _, err := prep.Publish(t.Context(), data); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Fatalf("a prepared publish used twice: %v", err)
	}
	prep.Close()
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("a used prepared publish left clones: %v", left)
	}
}
