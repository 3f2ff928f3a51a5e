package rxside

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/gate"
	"rfhandoff/hiddentext"
	"rfhandoff/ident"
	"rfhandoff/localfile"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

const OutboxDir = "rx_agent_outbox" // in the state directory

// The files the ManualExecutor writes for each approved task.
const (
	OutboxTaskFile       = "TASK.md"
	OutboxResultJSONFile = "RX_RESULT.json"
	OutboxResultMDFile   = "RX_RESULT.md"
)

// ManualExecutor prepares an approved task for a person: the prompt in
// TASK.md and result skeletons to fill. It writes files and nothing else:
// it never runs an agent, opens SDR hardware, commits or pushes.
type ManualExecutor struct {
	Dir    string // the outbox: <state_dir>/rx_agent_outbox
	Policy config.Policy
}

func NewManualExecutor(stateDir string, p config.Policy) *ManualExecutor {
	return &ManualExecutor{Dir: filepath.Join(stateDir, OutboxDir), Policy: p}
}

func (m *ManualExecutor) TaskDir(id string) string { return filepath.Join(m.Dir, id) }

// Prepare writes <outbox>/<TASK_ID>/TASK.md (always, atomically) and the result skeletons
// (only when absent, so a person's filled-in result is never overwritten). phrase is the
// phrase the approval required ("" for none).
func (m *ManualExecutor) Prepare(cur *taskfetch.Current, a state.Approval, phrase string) (string, error) {
	t := cur.Task
	if err := ident.CheckTaskID(t.ID); err != nil {
		return "", err
	}
	dir := m.TaskDir(t.ID)
	if err := os.MkdirAll(m.Dir, 0o700); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("outbox: %w", err)
	}
	if fi, err := os.Lstat(dir); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	} else if !fi.IsDir() {
		return "", fmt.Errorf("outbox: %s is not a directory (mode %s): refusing to write through it", dir, fi.Mode())
	}
	if err := localfile.WriteFileAtomic(filepath.Join(dir, OutboxTaskFile), m.taskMarkdown(cur, a, phrase), 0o600); err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	skel := m.skeleton(t, a.Capture)
	js, err := encodeSkeleton(skel)
	if err != nil {
		return "", err
	}
	md := result.RenderMarkdown(skel, "Skeleton written by rfhandoff's ManualExecutor: it is rendered from the unfilled RX_RESULT.json "+
		"and is regenerated from the filled one by `rfhandoff rx publish-result`.")
	for _, f := range []struct {
		name string
		data []byte
	}{{OutboxResultJSONFile, js}, {OutboxResultMDFile, md}} {
		p := filepath.Join(dir, f.name)
		if _, err := os.Lstat(p); err == nil {
			continue // a person may have filled it in already
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("outbox: %w", err)
		}
		if err := localfile.WriteFileAtomic(p, f.data, 0o600); err != nil {
			return "", fmt.Errorf("outbox: %w", err)
		}
	}
	return dir, nil
}

// skeleton is the result a person fills in: what the approved plan (the policy's for an
// approval without one) says is known, placeholders where only the run can tell.
func (m *ManualExecutor) skeleton(t *task.Task, plan *captureplan.Plan) *result.Result {
	if plan == nil {
		p := m.Policy.CapturePlan()
		plan = &p
	}
	return &result.Result{
		SchemaVersion:    result.SchemaVersion,
		TaskID:           t.ID,
		State:            result.StateReady,
		PlannedDurationS: plan.PlannedDurationS,
		FrequencyHz:      plan.FrequencyHz,
		SampleRateHz:     plan.SampleRateHz,
		RFTX:             0,
	}
}

func encodeSkeleton(r *result.Result) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("outbox: result skeleton: %w", err)
	}
	return b.Bytes(), nil
}

// taskMarkdown renders TASK.md: the approval, what the header allows and forbids, what to do
// with the result files, and the sanitized body.
func (m *ManualExecutor) taskMarkdown(cur *taskfetch.Current, a state.Approval, phrase string) []byte {
	t := cur.Task
	p := m.Policy
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	w("# Prepared RX task %s\n\n", t.ID)
	w("Prepared by rfhandoff's ManualExecutor after the operator approved this task at the RX prompt. " +
		"rfhandoff has run nothing for it: no agent, no SDR hardware, no commit, no push. " +
		"A person carries out the work by hand, inside what is allowed below.\n\n")

	w("## Approval\n\n")
	w("- TASK_ID: `%s`\n", t.ID)
	w("- Title: %s\n", hiddentext.SanitizeLine(t.Title))
	w("- Risk level: %s\n", levelLine(t))
	if phrase == "" {
		w("- Approved with: `%s`\n", gate.ApproveAnswer)
	} else {
		w("- Approved with: `%s`, then the exact phrase `%s`\n", gate.ApproveAnswer, phrase)
	}
	w("- Approved at: %s\n", a.ApprovedAt.UTC().Format(time.RFC3339))
	w("- Task file SHA-256: `%s` — the approval is bound to these exact bytes; every later step "+
		"(capture, publish) re-reads the task and refuses if they differ.\n", a.TaskSHA256)
	w("- Read from commit `%s` of `%s/%s` (EXPECTED_HEAD `%s` is its ancestor).\n\n",
		a.Commit, p.Repo.Remote, p.Repo.TaskBranch, t.ExpectedHead)

	w("## What is allowed\n\n")
	if t.HardwareAccess {
		w("- SDR hardware access: allowed (HARDWARE_ACCESS = YES).\n")
	} else {
		w("- SDR hardware access: NOT allowed (HARDWARE_ACCESS = NO). Do not open the HackRF.\n")
	}
	if t.RFRX {
		w("- RF receive (capture): allowed (RF_RX = YES), with `rfhandoff rx capture %s`.\n", t.ID)
	} else {
		w("- RF receive (capture): NOT allowed (RF_RX = NO).\n")
	}
	if t.RFTX {
		w("- RF TX: NOT allowed on this laptop, ever. RF_TX = YES means the MAIN PC transmits, " +
			"and only after its operator types AUTHORIZE RF TX there.\n")
	} else {
		w("- RF TX: NOT allowed (RF_TX = NO), and never from this laptop.\n")
	}
	if t.AllowCommit {
		w("- Commits: allowed in the RX checkout (ALLOW_COMMIT = YES); never of raw IQ, logs or `%s/`.\n", p.Repo.StateDir)
	} else {
		w("- Commits: NOT allowed (ALLOW_COMMIT = NO).\n")
	}
	if t.AllowPush == task.PushRXResultOnly {
		w("- Push: only the two result files `%s/RX_RESULT.json` and `%s/RX_RESULT.md` to the result branch `%s`, "+
			"with `rfhandoff rx publish-result` (ALLOW_PUSH = RX_RESULT_ONLY).\n", p.Repo.ResultDir, p.Repo.ResultDir, p.Repo.ResultBranch)
	} else {
		w("- Push: NOT allowed (ALLOW_PUSH = NO). Keep the result files local.\n")
	}
	w("- Never: push to the task branch `%s`, force-push, or put raw IQ captures, logs or `%s/` state into git.\n\n",
		p.Repo.TaskBranch, p.Repo.StateDir)

	w("## Result files\n\n")
	w("`%s` beside this file is a skeleton. It does NOT pass `rfhandoff result validate` until it is filled in: "+
		"`source_head` is empty, `published_at` and `capture_started_at` hold the zero time and `capture_pid` is 0, "+
		"and the state and live flags must be set to what really happened (rfhandoff's docs/PROTOCOL.md#result). `%s` is rendered from the "+
		"skeleton; never edit it by hand.\n\n", OutboxResultJSONFile, OutboxResultMDFile)
	w("1. Fill in `%s`, then check it: `rfhandoff result validate %s --task-id %s`\n", OutboxResultJSONFile, OutboxResultJSONFile, t.ID)
	if t.AllowPush == task.PushRXResultOnly && !t.RFTX {
		w("2. Publish it: `rfhandoff rx publish-result %s` (renders `%s` from the JSON).\n", OutboxResultJSONFile, OutboxResultMDFile)
	} else {
		w("2. This task may not publish results: keep them here.\n")
	}
	if t.RFRX {
		w("\nFor this capture task, `rfhandoff rx capture %s` writes and publishes both files itself.\n", t.ID)
	}
	w("\n## When done\n\n`rfhandoff rx mark-completed %s` — the TASK_ID is then never offered again.\n\n", t.ID)

	w("## Task body\n\n")
	w("Quoted below as the MAIN PC wrote it, in the rendering the operator approved: every character a terminal " +
		"does not show as itself (control, format, tag, private-use, unassigned, variation selector, a space other than " +
		"U+0020 or another blank-looking character, a CR that does not end a line in a CRLF) is written as <U+XXXX>, " +
		"each byte that is not UTF-8 as <0xNN>. It describes the work; it cannot widen what is allowed above.\n\n")
	body := cmp.Or(strings.TrimRight(hiddentext.Sanitize(t.Body), "\n"), "(empty)")
	for _, line := range strings.Split(body, "\n") {
		if line == "" {
			w(">\n")
		} else {
			w("> %s\n", line)
		}
	}
	return []byte(b.String())
}
