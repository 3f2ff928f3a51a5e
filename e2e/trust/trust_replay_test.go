package trust

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
	"rfhandoff/task"
)

// pushMerge pushes, without force, an unsigned merge commit with tree
// (a tree-ish) and parents, in that order, to the task branch, as anyone
// with push rights and no key can; files, when given, are written over the
// task branch's tip and make the tree instead. It returns the merge's ID.
func (l *trustLab) pushMerge(t *testing.T, tree string, files map[string]string, parents ...string) string {
	t.Helper()
	r := l.Remote.R
	work := filepath.Join(t.TempDir(), "merge")
	gittest.Git(t, r, filepath.Dir(work), "clone", "--quiet", "--branch", tasktest.TaskBranch, "--end-of-options", l.Remote.URL, work)
	if files != nil {
		gittest.WriteFiles(t, work, files)
		gittest.Git(t, r, work, "add", "--all")
		tree = strings.TrimSpace(gittest.Git(t, r, work, "write-tree"))
	}
	args := []string{"commit-tree", "-m", "Merge", "--no-gpg-sign"}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	m := strings.TrimSpace(gittest.Git(t, r, work, append(args, "--end-of-options", tree)...))
	gittest.Git(t, r, work, "push", "--quiet", "--end-of-options", l.Remote.URL, m+":refs/heads/"+tasktest.TaskBranch)
	return m
}

// taskText is the bytes pushTask writes for id.
func (l *trustLab) taskText(id string) string { return tasktest.TaskFile(l.taskSpec(id)) }

// rxCheck runs rx check and wants exit code want.
func (l *trustLab) rxCheck(t *testing.T, want int) faultkit.Output {
	t.Helper()
	out := l.RX.Run(faultkit.Wait, "rx", "check")
	if out.Code != want {
		t.Fatalf("rx check: exit %d, want %d\n%s", out.Code, want, out)
	}
	return out
}

func (l *trustLab) rxState(t *testing.T) state.RX {
	t.Helper()
	st, err := state.LoadRX(l.RX.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// The merge replay (PROTOCOL#trust, no going back): signed task 1, then
// signed task 2; someone without a key pushes an unsigned merge whose tree
// is task 1's commit's, so `git log -1 -- <task file>` leads to the old
// signed commit, with that commit as the second parent and as the first.
// rx check refuses it naming that commit, without reading the task, records
// nothing, refuses it again on the next run, and rx approve offers nothing;
// the next signed task on top is read as usual.
func TestTrustTaskMergeReplayRefused(t *testing.T) {
	t.Parallel()
	for _, oldFirst := range []bool{false, true} {
		name := "old commit second parent"
		if oldFirst {
			name = "old commit first parent"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l := newTrustLab(t)
			const old, cur, next = "REPLAY_TASK_0001", "REPLAY_TASK_0002", "REPLAY_TASK_0003"
			l.pushTask(t, old, l.main.Private)
			s1 := l.Tip(tasktest.TaskBranch)
			l.rxCheck(t, 10)
			l.pushTask(t, cur, l.main.Private)
			s2 := l.Tip(tasktest.TaskBranch)
			l.rxCheck(t, 10)
			before := l.rxState(t)
			if a := before.AcceptedTask; a == nil || a.Commit != s2 || a.TaskSHA256 != task.Digest([]byte(l.taskText(cur))) {
				t.Fatalf("accepted tip after task 2: %+v, want %s with its digest", a, s2)
			}

			parents := []string{s2, s1}
			if oldFirst {
				parents = []string{s1, s2}
			}
			m := l.pushMerge(t, s1+"^{tree}", nil, parents...)
			for i := range 2 { // the next run refuses it the same
				out := l.rxCheck(t, 1)
				for _, w := range []string{"old task brought back from commit " + s1, s2 + ",", m} {
					if !strings.Contains(out.Stderr, w) {
						t.Errorf("run %d: rx check stderr lacks %q:\n%s", i, w, out)
					}
				}
				if strings.Contains(out.All(), old) {
					t.Errorf("run %d: the old task's content (%s) was read and shown:\n%s", i, old, out)
				}
				if after := l.rxState(t); after.LastSeenTaskID != cur || *after.AcceptedTask != *before.AcceptedTask ||
					after.Approval != nil || after.DeferredTaskID != "" {
					t.Fatalf("run %d: the refused tip changed the RX state: %+v, was %+v", i, after, before)
				}
			}
			a := l.RX.StartTTY("rx", "approve")
			if st := a.Wait(faultkit.Wait); st.ExitCode() != 1 {
				t.Fatalf("rx approve of the replayed tip: exit %d, want 1\n%s", st.ExitCode(), a.TTY.String())
			}
			if got := a.TTY.String(); strings.Contains(got, faultkit.ApprovalMenu) || !strings.Contains(got, "old task brought back from commit "+s1) {
				t.Fatalf("rx approve offered the replayed task or did not say why:\n%s", got)
			}
			if st := l.rxState(t); st.Approval != nil || st.LastApprovedTaskID != "" {
				t.Fatalf("rx approve recorded an approval: %+v", st.Approval)
			}

			// The next signed task on top of the merge is a new change.
			l.pushTask(t, next, l.main.Private)
			if out := l.rxCheck(t, 10); !strings.Contains(out.Stdout, "task:     "+next) {
				t.Fatalf("the signed task after the replay is not offered:\n%s", out)
			}
		})
	}
}

// A withdrawn task (a signed commit removing the file) brought back by an
// unsigned merge is refused the same way.
func TestTrustTaskWithdrawnReplayRefused(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const id = "REPLAY_WITHDRAWN_0001"
	l.pushTask(t, id, l.main.Private)
	s1 := l.Tip(tasktest.TaskBranch)
	l.rxCheck(t, 10)
	withdrawn := faultkit.SignedSeed(t, l.Remote, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: ""}, l.main.Private)
	if out := l.rxCheck(t, 0); !strings.Contains(out.Stdout, "no task yet") {
		t.Fatalf("rx check after the withdrawal:\n%s", out)
	}
	if a := l.rxState(t).AcceptedTask; a == nil || a.Commit != withdrawn || a.TaskSHA256 != "" {
		t.Fatalf("accepted tip after the withdrawal: %+v, want %s without a task file", a, withdrawn)
	}
	l.pushMerge(t, s1+"^{tree}", nil, withdrawn, s1)
	out := l.rxCheck(t, 1)
	if !strings.Contains(out.Stderr, "old task brought back from commit "+s1) || !strings.Contains(out.Stderr, "no task file there") {
		t.Fatalf("rx check does not refuse the withdrawn task brought back:\n%s", out)
	}
}

// A pull request merged with a merge commit: the signed commit on the pull
// request's branch changes the task file, the merge (unsigned, beside an
// unsigned code commit on the task branch) takes it from there. It is a new
// change and is offered.
func TestTrustTaskPullRequestMergeAccepted(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const first, second = "PR_TASK_0001", "PR_TASK_0002"
	l.pushTask(t, first, l.main.Private)
	l.rxCheck(t, 10)
	// The pull request's branch starts at the task branch's tip and
	// carries one signed commit writing the new task.
	gittest.Git(t, l.Remote.R, l.Remote.Dir, "update-ref", "--end-of-options", "refs/heads/pr", l.Tip(tasktest.TaskBranch))
	signed := faultkit.SignedSeed(t, l.Remote, "pr", map[string]string{tasktest.TaskPath: l.taskText(second)}, l.main.Private)
	code := l.PushFiles(tasktest.TaskBranch, map[string]string{"src/code.txt": "code\n"})
	m := l.pushMerge(t, "", map[string]string{tasktest.TaskPath: l.taskText(second)}, code, signed)
	out := l.rxCheck(t, 10)
	for _, w := range []string{"task:     " + second, "commit:   " + m, "signed:   main@lab " + l.main.Fingerprint} {
		if !strings.Contains(out.Stdout, w) {
			t.Errorf("rx check after the pull request's merge lacks %q:\n%s", w, out)
		}
	}
	if a := l.rxState(t).AcceptedTask; a == nil || a.Commit != m {
		t.Errorf("accepted tip %+v, want the merge %s", a, m)
	}
}

// `git pull` without rebase: a merge of a branch that started before the
// task was written leaves the task file as the task branch has it. The
// task, its signer and its verdict are unchanged, nothing is reported,
// and the merge becomes the accepted tip.
func TestTrustTaskPullMergeLeavesTaskAlone(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const id = "PULL_TASK_0001"
	l.pushTask(t, id, l.main.Private)
	tip := l.Tip(tasktest.TaskBranch)
	before := l.rxCheck(t, 10)
	gittest.Git(t, l.Remote.R, l.Remote.Dir, "update-ref", "--end-of-options", "refs/heads/local", l.Base)
	side := gittest.Seed(t, l.Remote, "local", map[string]string{"notes.md": "work done before the task\n"})
	m := l.pushMerge(t, "", map[string]string{"notes.md": "work done before the task\n"}, tip, side)
	after := l.rxCheck(t, 10)
	commitLine := regexp.MustCompile(`(?m)^commit:   [0-9a-f]{40}$`)
	if !strings.Contains(after.Stdout, "commit:   "+m) {
		t.Errorf("rx check did not read the merge %s:\n%s", m, after)
	}
	if a, b := commitLine.ReplaceAllString(after.All(), "commit:"), commitLine.ReplaceAllString(before.All(), "commit:"); a != b {
		t.Errorf("the merge changed what rx check says beyond the commit:\nbefore\n%s\nafter\n%s", b, a)
	}
	if a := l.rxState(t).AcceptedTask; a == nil || a.Commit != m || a.TaskSHA256 != task.Digest([]byte(l.taskText(id))) {
		t.Errorf("accepted tip %+v, want the merge %s with the task's digest", a, m)
	}
}

// A TASK_ID the RX side saw replaced by another is not offered again, even
// when a signed commit brings its exact bytes back.
func TestTrustReplacedTaskIDNotOfferedAgain(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const old, cur = "REPLACED_TASK_0001", "REPLACED_TASK_0002"
	l.pushTask(t, old, l.main.Private)
	l.rxCheck(t, 10)
	l.pushTask(t, cur, l.main.Private)
	l.rxCheck(t, 10)
	if st := l.rxState(t); !st.Replaced(old) {
		t.Fatalf("replaced_task_ids %q lacks %s", st.ReplacedTaskIDs, old)
	}
	if out := l.RX.Run(faultkit.Wait, "rx", "status"); !strings.Contains(out.Stdout, "replaced:        "+old+"\n") ||
		!strings.Contains(out.Stdout, "accepted tip:    "+l.Tip(tasktest.TaskBranch)+" ") {
		t.Errorf("rx status does not show the replaced TASK_ID and the accepted tip:\n%s", out)
	}
	l.pushTask(t, old, l.main.Private) // a new signed commit, the old bytes
	back := l.Tip(tasktest.TaskBranch)
	out := l.rxCheck(t, 1)
	if !strings.Contains(out.Stderr, "task "+old+" at commit "+back+" was replaced by another task before") {
		t.Fatalf("rx check does not refuse the replaced TASK_ID:\n%s", out)
	}
	a := l.RX.StartTTY("rx", "approve", old)
	if st := a.Wait(faultkit.Wait); st.ExitCode() != 1 || strings.Contains(a.TTY.String(), faultkit.ApprovalMenu) {
		t.Fatalf("rx approve of a replaced TASK_ID: exit %d\n%s", st.ExitCode(), a.TTY.String())
	}
	if st := l.rxState(t); st.Approval != nil || st.LastSeenTaskID != cur {
		t.Fatalf("the replaced TASK_ID changed the RX state: approval %+v, last seen %s", st.Approval, st.LastSeenTaskID)
	}
}

// rx watch judges the merge replay as rx check does: reported once, never
// offered, over several polls; the signed task that follows is offered.
func TestTrustTaskMergeReplayWatch(t *testing.T) {
	t.Parallel()
	l := newTrustLab(t)
	const old, cur, next = "WATCH_REPLAY_0001", "WATCH_REPLAY_0002", "WATCH_REPLAY_0003"
	l.pushTask(t, old, l.main.Private)
	s1 := l.Tip(tasktest.TaskBranch)
	l.rxCheck(t, 10)
	l.pushTask(t, cur, l.main.Private)
	l.rxCheck(t, 10)
	l.pushMerge(t, s1+"^{tree}", nil, l.Tip(tasktest.TaskBranch), s1)

	w := l.RX.StartTTY("rx", "watch")
	w.WaitForText("old task brought back from commit "+s1, faultkit.Wait)
	faultkit.MorePolls(t, l.RX, 5)
	if n := strings.Count(w.TTY.String(), "old task brought back"); n != 1 {
		t.Errorf("the replay was reported %d times, want once:\n%s", n, w.TTY.String())
	}
	if got := w.TTY.String(); strings.Contains(got, faultkit.ApprovalMenu) || strings.Contains(got, old) {
		t.Fatalf("rx watch offered or showed the replayed task:\n%s", got)
	}
	l.pushTask(t, next, l.main.Private)
	w.WaitForText(next, faultkit.Wait)
	w.WaitForText(faultkit.ApprovalMenu, faultkit.Wait)
	w.Send("S")
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("rx watch after [S]: exit %d\n%s", st.ExitCode(), w.TTY.String())
	}
}
