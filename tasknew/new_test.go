package tasknew_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/task"
	"rfhandoff/tasknew"
)

const taskBranch = "video-development"

// mainCheckout is a remote with only the task branch (no rx-node yet) and
// a MAIN checkout of it.
func mainCheckout(t *testing.T) (*gittest.Remote, *tasknew.Writer) {
	t.Helper()
	rem := gittest.NewBareRemote(t, taskBranch)
	dir := gittest.Clone(t, rem, taskBranch)
	p := config.Default()
	p.Repo.Path = dir
	return rem, &tasknew.Writer{Git: &gitcli.Client{R: rem.R, Dir: dir}, Policy: p}
}

func request(id, title string) tasknew.Request {
	s := task.Spec{ID: id, Title: title, RequiresApproval: true, AllowPush: task.PushNo}
	s.Body = task.DefaultBody(s)
	return tasknew.Request{Spec: s}
}

func reasons(t *testing.T, err error) []string {
	t.Helper()
	var me *multierror.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %T %v, want every reason in a *multierror.Error", err, err)
	}
	var out []string
	for _, e := range me.Errors {
		out = append(out, e.Error())
	}
	return out
}

// TestWriteWithoutResultBranch: before rx-node exists there is nothing to
// check there; EXPECTED_HEAD is the remote tip.
func TestWriteWithoutResultBranch(t *testing.T) {
	t.Parallel()
	rem, w := mainCheckout(t)
	out, err := w.Write(t.Context(), request("FIRST_TASK_001", "First"))
	if err != nil {
		t.Fatal(err)
	}
	if tip := gittest.Tip(t, rem, taskBranch); out.Tip != tip || out.Task.ExpectedHead != tip {
		t.Errorf("tip %s, EXPECTED_HEAD %s; want the remote tip %s", out.Tip, out.Task.ExpectedHead, tip)
	}
	data, err := os.ReadFile(filepath.Join(w.Policy.Repo.Path, w.Policy.Repo.TaskFile))
	if err != nil {
		t.Fatal(err)
	}
	if task.Digest(data) != out.Task.SHA256 || !out.IsTaskFile {
		t.Errorf("the file on disk is not the task reported")
	}
}

// TestInvalidResultStillUsesItsID: a result on rx-node that no longer
// passes the schema still marks its task_id as used.
func TestInvalidResultStillUsesItsID(t *testing.T) {
	t.Parallel()
	rem, w := mainCheckout(t)
	id := gittest.Seed(t, rem, "rx-node", map[string]string{
		"docs/handoff/results/RX_RESULT.json": `{"schema_version": 0, "task_id": "OLD_RESULT_001"}`,
	})
	_, err := w.Write(t.Context(), request("OLD_RESULT_001", "Reused"))
	got := reasons(t, err)
	want := "TASK_ID OLD_RESULT_001 was already used: the result at commit " + id + " on origin/rx-node is for it (not a valid result)"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("reasons %q, want one starting %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(w.Policy.Repo.Path, w.Policy.Repo.TaskFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused task was written: %v", err)
	}
}

// TestUnreachableRemoteReportsEverything: without the fetch nothing is
// written, and the other problems are still reported with it.
func TestUnreachableRemoteReportsEverything(t *testing.T) {
	t.Parallel()
	_, w := mainCheckout(t)
	gittest.Git(t, w.Git.R, w.Policy.Repo.Path, "remote", "set-url", "origin", filepath.Join(t.TempDir(), "gone.git"))
	_, err := w.Write(t.Context(), request("GONE_TASK_001", " padded"))
	got := reasons(t, err)
	if len(got) != 2 || !strings.Contains(got[0], "fetch the task branch origin/video-development") ||
		!strings.Contains(got[1], "TASK_TITLE") {
		t.Errorf("reasons %q, want the fetch failure and the title", got)
	}
	if _, err := os.Stat(filepath.Join(w.Policy.Repo.Path, w.Policy.Repo.TaskFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused task was written: %v", err)
	}
}
