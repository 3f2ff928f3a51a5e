package publish_test

import (
	"bytes"
	"strings"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/publish"
	"rfhandoff/result"
	"rfhandoff/task"
)

// refusal is one case of a check refusing: a fixture, a way to break the
// world or the result, the check that must refuse and words its message
// must hold.
type refusal struct {
	name  string
	opts  publishtest.Options
	setup func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte // returns the result bytes
	step  int
	want  string
}

func readyBytes(t *testing.T, f *publishtest.Fixture, edit func(r *result.Result)) []byte {
	r := f.Ready()
	if edit != nil {
		edit(r)
	}
	return publishtest.Encode(t, r)
}

// TestChecksRefuseInOrder runs one refusal per check of PROTOCOL#publishing (several
// for some) and checks that each names its check, stops there, and leaves
// the remote's refs and the RX checkout untouched.
func TestChecksRefuseInOrder(t *testing.T) {
	t.Parallel()
	cases := []refusal{
		{
			name: "1 result for another task",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, func(r *result.Result) { r.TaskID = "RX_OTHER_0002" })
			},
			step: publish.StepTaskID, want: `check 1 (task ID): result is for "RX_OTHER_0002", the current task is ` + publishtest.TaskID,
		},
		{
			name: "1 task_id unreadable",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return []byte(`{"task_id": 7}`)
			},
			step: publish.StepTaskID, want: "cannot read task_id from the result (task_id is not a string)",
		},
		{
			name: "1 duplicated task_id with another value",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				data := readyBytes(t, f, nil)
				return bytes.Replace(data, []byte(`"task_id": "`+publishtest.TaskID+`",`),
					[]byte(`"task_id": "`+publishtest.TaskID+`", "task_id": "RX_OTHER_0002",`), 1)
			},
			step: publish.StepTaskID, want: `result is for "RX_OTHER_0002"`,
		},
		{
			name: "1 task branch missing",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				d.Policy.Repo.TaskBranch = "no-such-branch"
				return readyBytes(t, f, nil)
			},
			step: publish.StepTaskID, want: "reading the current task from origin/no-such-branch",
		},
		{
			name: "2 ALLOW_PUSH = NO",
			opts: publishtest.Options{AllowPush: task.PushNo},
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, nil)
			},
			step: publish.StepAllowPush, want: "check 2 (ALLOW_PUSH): task " + publishtest.TaskID + " has ALLOW_PUSH = NO",
		},
		{
			name: "3 RF_TX = YES",
			opts: publishtest.Options{RFTX: true},
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, nil)
			},
			step: publish.StepRFTX, want: "check 3 (RF_TX): task " + publishtest.TaskID + " has RF_TX = YES",
		},
		{
			name: "4 nothing approved",
			opts: publishtest.Options{NoApproval: true},
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, nil)
			},
			step: publish.StepApproved, want: "check 4 (approved task): no task has been approved",
		},
		{
			name: "4 another task approved",
			opts: publishtest.Options{NoApproval: true},
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				f.Approve(t, "RX_EARLIER_0001", []byte("earlier task"), f.BaseCommit)
				return readyBytes(t, f, nil)
			},
			step: publish.StepApproved, want: "check 4 (approved task): last_approved_task_id is RX_EARLIER_0001, result is for " + publishtest.TaskID,
		},
		{
			name: "4 task changed since approval",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				// Same TASK_ID, new bytes on the task branch.
				changed := tasktest.TaskFile(tasktest.TaskSpec{ID: publishtest.TaskID, ExpectedHead: f.BaseCommit, Level: gate.Yellow, Body: "Capture and publish, now at 868 MHz.\n"})
				gittest.Seed(t, f.Remote, f.Policy.Repo.TaskBranch, map[string]string{f.Policy.Repo.TaskFile: changed})
				return readyBytes(t, f, nil)
			},
			step: publish.StepApproved, want: "task " + publishtest.TaskID + " changed since it was approved",
		},
		{
			name: "5 source_head is not the checkout's HEAD",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, func(r *result.Result) { r.SourceHead = strings.Repeat("0", 40) })
			},
			step: publish.StepSourceHead, want: `check 5 (source head): source_head is "` + strings.Repeat("0", 40) + `", the RX checkout's HEAD is `,
		},
		{
			name: "6 result branch missing",
			opts: publishtest.Options{NoResultBranch: true},
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, nil)
			},
			step: publish.StepResultBranch, want: "check 6 (result branch): remote branch origin/rx-node does not exist; rfhandoff never creates it",
		},
		{
			name: "6 result branch missing (named on the command line)",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				d.ResultBranch = "rx-node-typo"
				return readyBytes(t, f, nil)
			},
			step: publish.StepResultBranch, want: "remote branch origin/rx-node-typo does not exist",
		},
		{
			name: "6 result branch is the task branch",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				d.ResultBranch = f.Policy.Repo.TaskBranch
				return readyBytes(t, f, nil)
			},
			step: publish.StepResultBranch, want: "result branch video-development is the task branch",
		},
		{
			name: "6 result branch name is an option",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				d.ResultBranch = "--force"
				return readyBytes(t, f, nil)
			},
			step: publish.StepResultBranch, want: `invalid branch "--force"`,
		},
		{
			name: "7 schema: rf_tx 1 and an unknown key",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				data := readyBytes(t, f, nil)
				data = bytes.Replace(data, []byte(`"rf_tx": 0`), []byte(`"rf_tx": 1, "Note": "x"`), 1)
				return data
			},
			step: publish.StepSchema, want: "check 7 (schema): RX_RESULT.json is invalid (2 problems)",
		},
		{
			name: "7 schema: over the policy's size limit",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				d.Policy.Limits.MaxResultBytes = 200
				return readyBytes(t, f, nil)
			},
			step: publish.StepSchema, want: "more than the limit of 200",
		},
		{
			name: "7 schema: planned_duration_s is not the policy's",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, func(r *result.Result) { r.PlannedDurationS = 60 })
			},
			step: publish.StepSchema, want: "is 60, but the policy's limits.planned_duration_s is",
		},
		{
			name: "order: wrong task and ALLOW_PUSH = NO stops at 1",
			opts: publishtest.Options{AllowPush: task.PushNo},
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				return readyBytes(t, f, func(r *result.Result) { r.TaskID = "RX_OTHER_0002" })
			},
			step: publish.StepTaskID, want: "check 1 (task ID)",
		},
		{
			name: "order: wrong source_head and invalid schema stops at 5",
			setup: func(t *testing.T, f *publishtest.Fixture, d *publish.Deps) []byte {
				data := readyBytes(t, f, func(r *result.Result) { r.SourceHead = strings.Repeat("1", 40) })
				return bytes.Replace(data, []byte(`"rf_tx": 0`), []byte(`"rf_tx": 1`), 1)
			},
			step: publish.StepSourceHead, want: "check 5 (source head)",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := publishtest.New(t, tc.opts)
			d := f.Deps()
			data := tc.setup(t, f, &d)
			refs, snap := f.Refs(t), f.Snapshot(t)
			out, err := publish.Publish(t.Context(), d, data)
			if err == nil {
				t.Fatalf("published %+v, want check %d to refuse", out, tc.step)
			}
			ce := asCheck(t, err, tc.step)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("message %q\nwant it to contain %q", err, tc.want)
			}
			if ce.Name == "" || !strings.HasPrefix(err.Error(), "check ") {
				t.Errorf("message %q does not name the check", err)
			}
			if out != (publish.Outcome{}) {
				t.Errorf("outcome %+v on refusal", out)
			}
			unchanged(t, f, refs, snap)
			allEnded(t, f)
		})
	}
}

// TestSchemaRefusalKeepsTheDecoderError: check 7 wraps the strict
// decoder's error, so the refusal names its one problem, the key.
func TestSchemaRefusalKeepsTheDecoderError(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	data := bytes.Replace(readyBytes(t, f, nil), []byte(`"capture_pid": 4242`), []byte(`"capture_pid": 4242.0`), 1)
	_, err := publish.Publish(t.Context(), f.Deps(), data)
	asCheck(t, err, publish.StepSchema)
	if err == nil || !strings.Contains(err.Error(), `RX_RESULT.json is invalid: "capture_pid": `) {
		t.Fatalf("error %v, want the decoder's one problem, about capture_pid", err)
	}
}
