package rxside

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

func parsed(t *testing.T, s tasktest.TaskSpec) *taskfetch.Current {
	t.Helper()
	if s.ExpectedHead == "" {
		s.ExpectedHead = strings.Repeat("1", 40)
	}
	data := []byte(tasktest.TaskFile(s))
	tk, err := task.Parse(data, task.Options{TaskBranch: tasktest.TaskBranch})
	if err != nil {
		t.Fatal(err)
	}
	return &taskfetch.Current{Commit: strings.Repeat("2", 40), Data: data, Task: tk}
}

func TestManualExecutorPrepare(t *testing.T) {
	t.Parallel()
	mx := NewManualExecutor(t.TempDir(), config.Default())
	cur := parsed(t, tasktest.TaskSpec{ID: "OUTBOX_RX_1", HardwareAccess: true, RFRX: true, AllowPush: "RX_RESULT_ONLY",
		Body: "## Steps\n\n1. capture \x1b[2J now\n\n## What is allowed\n\nRF TX: allowed\n"})
	a := state.Approval{TaskID: cur.Task.ID, TaskSHA256: cur.Task.SHA256, Commit: cur.Commit, ApprovedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	dir, err := mx.Prepare(cur, a, "")
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(mx.Dir, "OUTBOX_RX_1") {
		t.Errorf("dir %s", dir)
	}
	md := readFile(t, filepath.Join(dir, OutboxTaskFile))
	for _, want := range []string{
		"# Prepared RX task OUTBOX_RX_1\n",
		"no agent, no SDR hardware, no commit, no push",
		"- Risk level: YELLOW (declared YELLOW, derived YELLOW from HARDWARE_ACCESS = YES, RF_RX = YES, ALLOW_PUSH = RX_RESULT_ONLY)\n",
		"- Approved with: `A`\n",
		"- Approved at: 2026-01-02T03:04:05Z\n",
		"`" + cur.Task.SHA256 + "`",
		"- SDR hardware access: allowed",
		"- RF receive (capture): allowed (RF_RX = YES), with `rfhandoff rx capture OUTBOX_RX_1`",
		"- RF TX: NOT allowed (RF_TX = NO)",
		"- Commits: NOT allowed (ALLOW_COMMIT = NO)",
		"- Push: only the two result files `docs/handoff/results/RX_RESULT.json` and `docs/handoff/results/RX_RESULT.md` to the result branch `rx-node`",
		"does NOT pass `rfhandoff result validate` until it is filled in",
		"`rfhandoff rx mark-completed OUTBOX_RX_1`",
		// The body is quoted (its headings cannot pose as ours) and sanitized.
		"> 1. capture <U+001B>[2J now\n",
		"> ## What is allowed\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("TASK.md lacks %q:\n%s", want, md)
		}
	}
	if strings.ContainsRune(md, 0x1b) {
		t.Error("TASK.md holds a raw escape character")
	}

	// The JSON skeleton has every key but cannot pass until filled in.
	js := []byte(readFile(t, filepath.Join(dir, OutboxResultJSONFile)))
	if _, err := result.Decode(js, result.Options{}); err == nil {
		t.Fatal("the unfilled skeleton passes the strict schema")
	}
	if _, err := result.Decode(fill(t, js), result.Options{TaskID: "OUTBOX_RX_1"}); err != nil {
		t.Fatalf("the skeleton with its placeholders filled is still invalid: %v", err)
	}
	if mdRes := readFile(t, filepath.Join(dir, OutboxResultMDFile)); !strings.Contains(mdRes, "OUTBOX_RX_1") {
		t.Errorf("RX_RESULT.md:\n%s", mdRes)
	}

	// Preparing again never overwrites what a person filled in.
	filled := fill(t, js)
	if err := os.WriteFile(filepath.Join(dir, OutboxResultJSONFile), filled, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := mx.Prepare(cur, a, ""); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, OutboxResultJSONFile)); got != string(filled) {
		t.Error("a filled RX_RESULT.json was overwritten")
	}
}

func TestManualExecutorForbids(t *testing.T) {
	t.Parallel()
	mx := NewManualExecutor(t.TempDir(), config.Default())
	cur := parsed(t, tasktest.TaskSpec{ID: "OUTBOX_TX_1", HardwareAccess: true, RFTX: true})
	a := state.Approval{TaskID: cur.Task.ID, TaskSHA256: cur.Task.SHA256, Commit: cur.Commit, ApprovedAt: time.Now()}
	dir, err := mx.Prepare(cur, a, "AUTHORIZE RF TX")
	if err != nil {
		t.Fatal(err)
	}
	md := readFile(t, filepath.Join(dir, OutboxTaskFile))
	for _, want := range []string{
		"- Approved with: `A`, then the exact phrase `AUTHORIZE RF TX`\n",
		"- RF TX: NOT allowed on this laptop, ever.",
		"- RF receive (capture): NOT allowed (RF_RX = NO)",
		"- Push: NOT allowed (ALLOW_PUSH = NO)",
		"2. This task may not publish results",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("TASK.md lacks %q:\n%s", want, md)
		}
	}
	// A file where the task's directory should be is refused.
	if err := os.WriteFile(mx.TaskDir("OUTBOX_FILE"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cur2 := parsed(t, tasktest.TaskSpec{ID: "OUTBOX_FILE"})
	if _, err := mx.Prepare(cur2, state.Approval{}, ""); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Prepare into a file: %v", err)
	}
}

// fill replaces the skeleton's placeholders with READY values.
func fill(t *testing.T, js []byte) []byte {
	t.Helper()
	now := time.Now().UTC().Format(time.RFC3339)
	s := string(js)
	for old, repl := range map[string]string{
		`"source_head": ""`:                            `"source_head": "` + strings.Repeat("3", 40) + `"`,
		`"published_at": "0001-01-01T00:00:00Z"`:       `"published_at": "` + now + `"`,
		`"capture_started_at": "0001-01-01T00:00:00Z"`: `"capture_started_at": "` + now + `"`,
		`"capture_pid": 0`:                             `"capture_pid": 4242`,
		`"rx_ready_for_tx": false`:                     `"rx_ready_for_tx": true`,
		`"process_alive": false`:                       `"process_alive": true`,
		`"file_growing": false`:                        `"file_growing": true`,
		`"common_clock_verified": false`:               `"common_clock_verified": true`,
	} {
		if !strings.Contains(s, old) {
			t.Fatalf("skeleton lacks %s:\n%s", old, js)
		}
		s = strings.Replace(s, old, repl, 1)
	}
	return []byte(s)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
