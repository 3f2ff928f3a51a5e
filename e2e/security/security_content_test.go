package security

import (
	"strings"
	"syscall"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// blobReads counts the `git cat-file blob` calls in side's audit log.
func blobReads(t *testing.T, side *faultkit.Side) int {
	t.Helper()
	return faultkit.CountCalls(faultkit.GitCalls(faultkit.AuditEntries(t, side.AuditPath()), "cat-file"), func(c faultkit.Call) bool {
		a := faultkit.GitArgs(c.Start)
		return len(a) > 1 && a[1] == "blob"
	})
}

// Invariant: what sits at the result path on the result branch cannot
// redirect a publish. A regular file where the results directory belongs
// and a symlink in place of RX_RESULT.json are refused, naming the path,
// and the branch is unchanged. (Every such shape is covered against the
// publish package in publish.TestUnsafeResultPathsRefused; these go
// through the binary.) On the MAIN side, a symlink in place of
// RX_RESULT.json is refused without reading anything through it.
func TestSecurityResultPathShapes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		files map[string]string
		path  string
	}{
		{"results directory is a file", map[string]string{"docs/handoff/results": "not a directory\n"}, "docs/handoff/results"},
		{"RX_RESULT.json is a symlink", map[string]string{tasktest.ResultPath: gittest.SymlinkPrefix + "../../../README.md"}, tasktest.ResultPath},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lab := faultkit.NewLab(t)
			commit, data := lab.PushTask(tasktest.Capture("SEC_PATH_0001"))
			lab.Approve("SEC_PATH_0001", data, commit)
			before := lab.PushFiles(tasktest.ResultBranch, c.files)
			out := lab.RX.Run(faultkit.Wait, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready("SEC_PATH_0001"))))
			if out.Code != 1 || !strings.Contains(out.Stderr, c.path) {
				t.Errorf("publish onto %s: want exit 1 naming %s\n%s", c.name, c.path, out)
			}
			if tip := lab.Tip(tasktest.ResultBranch); tip != before {
				t.Errorf("a refused publish moved the result branch to %s", tip)
			}
			if strings.Contains(c.name, "symlink") {
				w := lab.Main.Start("tx", "watch")
				w.Stdout.WaitForText("not a regular file", faultkit.Wait)
				w.Signal(syscall.SIGTERM)
				w.Wait(faultkit.Wait)
				if n := blobReads(t, lab.Main); n != 0 {
					t.Errorf("tx watch read %d blobs behind a symlink", n)
				}
			}
		})
	}
}

// Invariant: a result branch holding other files keeps them: a publish
// changes exactly RX_RESULT.json and RX_RESULT.md and leaves every other
// path's blob as it was.
func TestSecurityResultBranchExtraFiles(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	commit, data := lab.PushTask(tasktest.Capture("SEC_EXTRA_0001"))
	lab.Approve("SEC_EXTRA_0001", data, commit)
	before := lab.PushFiles(tasktest.ResultBranch, map[string]string{
		"docs/handoff/results/notes.txt":    "kept\n",
		"docs/handoff/results/old/plot.png": "png\n",
		"tools/run.sh":                      "#!/bin/sh\necho hi\n",
	})
	out := lab.RX.Run(faultkit.Wait, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready("SEC_EXTRA_0001"))))
	if out.Code != 0 {
		t.Fatalf("publish onto a branch with extra files: want exit 0\n%s", out)
	}
	if blobReads(t, lab.RX) == 0 {
		t.Error("no blob read counted for a publish that read the task: blobReads cannot see reads")
	}
	after := lab.Tip(tasktest.ResultBranch)
	changed := strings.Fields(gittest.Git(t, lab.R, lab.Remote.Dir, "diff", "--name-only", before, after))
	if strings.Join(changed, " ") != tasktest.ResultMDPath+" "+tasktest.ResultPath && strings.Join(changed, " ") != tasktest.ResultPath+" "+tasktest.ResultMDPath {
		t.Errorf("publish changed %v, want exactly the two result files", changed)
	}
	for _, p := range []string{"docs/handoff/results/notes.txt", "docs/handoff/results/old/plot.png", "tools/run.sh", "README.md"} {
		was := gittest.Git(t, lab.R, lab.Remote.Dir, "rev-parse", before+":"+p)
		now := gittest.Git(t, lab.R, lab.Remote.Dir, "rev-parse", after+":"+p)
		if was != now {
			t.Errorf("%s changed from %s to %s", p, strings.TrimSpace(was), strings.TrimSpace(now))
		}
	}
}

// Invariant: an oversized task or result is refused by its size, before a
// byte of it is read: the audit log holds no `git cat-file blob` call.
func TestSecurityOversizedBlobs(t *testing.T) {
	t.Parallel()
	t.Run("task over the policy limit", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.RX.Policy.Limits.MaxTaskBytes = 4096
		lab.RX.WritePolicy()
		lab.PushTask(tasktest.TaskSpec{ID: "SEC_SIZE_0001", Level: gate.Yellow, Body: strings.Repeat("x", 4096) + "\n"})
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		if out.Code != 1 || !strings.Contains(out.Stderr, "4096") {
			t.Errorf("rx check of a task over 4096 bytes: want exit 1 naming the limit\n%s", out)
		}
		if n := blobReads(t, lab.RX); n != 0 {
			t.Errorf("%d blob reads of an oversized task", n)
		}
	})
	t.Run("task over 64 KiB", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.TaskSpec{ID: "SEC_SIZE_0002", Level: gate.Yellow, Body: strings.Repeat("y", 64<<10) + "\n"})
		w := lab.RX.Start("rx", "watch")
		w.Stderr.WaitForText("65536", faultkit.Wait)
		w.Signal(syscall.SIGTERM)
		w.Wait(faultkit.Wait)
		if n := blobReads(t, lab.RX); n != 0 {
			t.Errorf("%d blob reads of an oversized task", n)
		}
	})
	t.Run("result over the limit", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.Main.Policy.Limits.MaxResultBytes = 2048
		lab.Main.WritePolicy()
		lab.PushTask(tasktest.Capture("SEC_SIZE_0003"))
		lab.PushResult([]byte(strings.Repeat(" ", 2049)))
		w := lab.Main.Start("tx", "watch")
		w.Stdout.WaitForText("2048", faultkit.Wait)
		w.Signal(syscall.SIGTERM)
		w.Wait(faultkit.Wait)
		if n := blobReads(t, lab.Main); n != 0 {
			t.Errorf("%d blob reads of an oversized result", n)
		}
		if strings.Contains(w.Stdout.String(), "READY result") {
			t.Errorf("an oversized result was shown:\n%s", w.Stdout.String())
		}
	})
}
