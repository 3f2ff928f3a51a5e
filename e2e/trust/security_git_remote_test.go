package trust

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// Finding 8 of issue 29: no url.<base>.insteadOf, pushInsteadOf, pushurl
// or second url, in a mirror's config, the checkout's (directly or
// included) or the global config, sends a fetch or a push to a repository
// an agent controls, and the audit log names the URL each call reached.

// copyOf makes a bare copy of the lab's remote, as an agent would to
// redirect rfhandoff there, with a pre-receive hook that records each
// push it sees in marker (and accepts it).
func copyOf(t *testing.T, lab *faultkit.Lab, marker string) *gittest.Remote {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "copy.git")
	gittest.Git(t, lab.R, filepath.Dir(dir), "clone", "--quiet", "--bare", "--end-of-options", lab.Remote.URL, dir)
	c := &gittest.Remote{Dir: dir, URL: gittest.ServeURL(t, dir), R: lab.R}
	gittest.InstallHook(t, c, "pre-receive", "#!/bin/sh\necho pre-receive ran >> '"+filepath.ToSlash(marker)+"'\nexit 0\n")
	return c
}

// Finding 8, the mirrors' config: url.<copy>.insteadOf = <remote> in a
// mirror's config never makes rfhandoff read the copy. On the MAIN side
// a READY that exists only in the copy is never offered (the first
// result offered is the one pushed to the real remote); on the RX side a
// task that exists only in the copy is never offered.
func TestSecurityInsteadOfInMirrorConfig(t *testing.T) {
	t.Parallel()
	t.Run("main", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		const id = "PIN_MIRROR_0001"
		lab.PushTask(tasktest.Capture(id))
		mainWatchOnce(t, lab)
		c := copyOf(t, lab, filepath.Join(t.TempDir(), "marker"))
		only := lab.Ready(id)
		only.CapturePID = 6661
		copied := gittest.Seed(t, c, tasktest.ResultBranch, map[string]string{tasktest.ResultPath: string(lab.Encode(only))})
		setConfig(t, lab, filepath.Join(lab.Main.Mirror(), "config"), "url."+c.URL+".insteadOf", lab.Remote.URL)
		real := lab.PushResult(lab.Encode(lab.Ready(id)))

		w := lab.Main.StartTTY("tx", "watch")
		w.WaitForText("Type exactly: AUTHORIZE RF TX", faultkit.Wait)
		w.Signal(syscall.SIGTERM)
		w.Wait(faultkit.Wait)
		if out := w.TTY.String(); strings.Contains(out, copied) || !strings.Contains(out, "result branch commit "+real) {
			t.Fatalf("tx watch offered the copy's READY %s, not the remote's %s:\n%s", copied, real, out)
		}
	})
	t.Run("rx", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 0 {
			t.Fatalf("rx check before any task (creates the mirror):\n%s", out)
		}
		c := copyOf(t, lab, filepath.Join(t.TempDir(), "marker"))
		gittest.Seed(t, c, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(withBase(lab, tasktest.Capture("PIN_COPY_0001")))})
		setConfig(t, lab, filepath.Join(lab.RX.Mirror(), "config"), "url."+c.URL+".insteadOf", lab.Remote.URL)
		lab.PushTask(tasktest.Capture("PIN_REAL_0001"))
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		if strings.Contains(out.All(), "PIN_COPY_0001") || out.Code != 10 || !strings.Contains(out.Stdout, "PIN_REAL_0001") {
			t.Fatalf("rx check: want exit 10 offering the remote's task, never the copy's\n%s", out)
		}
	})
}

// withBase is s against the lab's base commit (PushTask's default).
func withBase(lab *faultkit.Lab, s tasktest.TaskSpec) tasktest.TaskSpec {
	if s.ExpectedHead == "" {
		s.ExpectedHead = lab.Base
	}
	return s
}

// Finding 8, the checkout's config: a url.<copy>.insteadOf for the remote
// in the RX checkout's .git/config, directly or through include.path or
// includeIf, makes rx check refuse, naming the rewrite, where it is set
// and the fix; the copy's task is never offered.
func TestSecurityInsteadOfInCheckoutConfig(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"direct", "include.path", "includeIf"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			lab := faultkit.NewLab(t)
			c := copyOf(t, lab, filepath.Join(t.TempDir(), "marker"))
			gittest.Seed(t, c, tasktest.TaskBranch, map[string]string{tasktest.TaskPath: tasktest.TaskFile(withBase(lab, tasktest.Capture("PIN_COPY_0002")))})
			lab.PushTask(tasktest.Capture("PIN_REAL_0002"))
			cfg := filepath.Join(lab.RX.Dir, ".git", "config")
			where := cfg
			switch how {
			case "direct":
				setConfig(t, lab, cfg, "url."+c.URL+".insteadOf", lab.Remote.URL)
			default:
				where = filepath.Join(t.TempDir(), "included.cfg")
				setConfig(t, lab, where, "url."+c.URL+".insteadOf", lab.Remote.URL)
				section := "[include]"
				if how == "includeIf" {
					section = `[includeIf "gitdir:` + filepath.ToSlash(lab.RX.Dir) + `/"]`
				}
				appendFile(t, cfg, section+"\n\tpath = "+filepath.ToSlash(where)+"\n")
			}
			out := lab.RX.Run(faultkit.Wait, "rx", "check")
			if strings.Contains(out.All(), "PIN_COPY_0002") || out.Code != 1 {
				t.Fatalf("rx check: want exit 1, the copy's task never offered\n%s", out)
			}
			for _, w := range []string{"insteadOf", c.URL, where, "[repo] url"} {
				if !strings.Contains(out.Stderr, w) {
					t.Errorf("the refusal does not name %q:\n%s", w, out)
				}
			}
			// The fix the refusal names: the policy's URL, and the
			// checkout's remote config is not read at all.
			lab.RX.Policy.Repo.URL = lab.Remote.URL
			lab.RX.WritePolicy()
			out = lab.RX.Run(faultkit.Wait, "rx", "check")
			if strings.Contains(out.All(), "PIN_COPY_0002") || out.Code != 10 || !strings.Contains(out.Stdout, "PIN_REAL_0002") {
				t.Fatalf("rx check with [repo] url: want exit 10 offering the remote's task\n%s", out)
			}
			remotesOnRecord(t, lab.RX, lab.Remote.URL, "fetch")
		})
	}
}

// remotesOnRecord checks that side's audit log has git sub calls and that
// each names url as its remote.
func remotesOnRecord(t *testing.T, side *faultkit.Side, url, sub string) {
	t.Helper()
	starts := faultkit.GitStarts(faultkit.AuditEntries(t, side.AuditPath()), sub)
	if len(starts) == 0 {
		t.Fatalf("no git %s in the audit log", sub)
	}
	for _, e := range starts {
		if e.Remote != url {
			t.Errorf("git %s on record with remote %q, want %s: %q", sub, e.Remote, url, e.Argv)
		}
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// Finding 8, the push: rx publish-result never pushes anywhere but the
// remote. A url.<copy>.insteadOf in the RX checkout's config (what the
// publisher's clone was made from), and a pushInsteadOf or pushurl in the
// global or the checkout's config, make it refuse naming the setting: the
// copy's pre-receive hook never runs and neither branch moves.
func TestSecurityPushRedirectPublish(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, file, key string }{
		{"insteadOf in the checkout", "checkout", "insteadOf"},
		{"pushInsteadOf in the global config", "global", "pushInsteadOf"},
		{"pushInsteadOf in the checkout", "checkout", "pushInsteadOf"},
		{"pushurl in the checkout", "checkout", "pushurl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lab := faultkit.NewLab(t)
			marker := filepath.Join(t.TempDir(), "marker")
			cp := copyOf(t, lab, marker)
			const id = "PIN_PUSH_0001"
			commit, data := lab.PushTask(tasktest.Capture(id))
			// The copy holds the same task, so that only the push tells.
			gittest.Git(t, lab.R, cp.Dir, "fetch", "--quiet", "--end-of-options", lab.Remote.URL, "refs/heads/"+tasktest.TaskBranch+":refs/heads/"+tasktest.TaskBranch)
			lab.Approve(id, data, commit)
			file := filepath.Join(lab.RX.Dir, ".git", "config")
			if c.file == "global" {
				file = globalConfig(lab)
			}
			if c.key == "pushurl" {
				setConfig(t, lab, file, "remote.origin.pushurl", cp.URL)
			} else {
				setConfig(t, lab, file, "url."+cp.URL+"."+c.key, lab.Remote.URL)
			}
			before, copyBefore := lab.Tip(tasktest.ResultBranch), gittest.Tip(t, cp, tasktest.ResultBranch)
			out := lab.RX.Run(faultkit.Wait, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready(id))))
			if data, err := os.ReadFile(marker); err == nil {
				t.Fatalf("the copy's pre-receive hook ran: %s\n%s", data, out)
			}
			if lab.Tip(tasktest.ResultBranch) != before || gittest.Tip(t, cp, tasktest.ResultBranch) != copyBefore {
				t.Fatalf("a result branch moved\n%s", out)
			}
			if out.Code != 1 || !strings.Contains(out.Stderr, c.key) || !strings.Contains(out.Stderr, cp.URL) {
				t.Fatalf("rx publish-result: want exit 1 naming the %s to %s\n%s", c.key, cp.URL, out)
			}

			// The fix: the policy's URL (a checkout's setting is then
			// not read), or the global setting removed. The result goes
			// to the remote, the copy's hook never runs, and the audit
			// log names the remote's URL on every call to it.
			if c.file == "global" {
				gittest.Git(t, lab.R, lab.Tmp, "config", "--file", file, "--unset", "url."+cp.URL+"."+c.key)
			} else {
				lab.RX.Policy.Repo.URL = lab.Remote.URL
				lab.RX.WritePolicy()
			}
			out = lab.RX.Run(faultkit.Wait, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready(id))))
			if out.Code != 0 || lab.Tip(tasktest.ResultBranch) == before {
				t.Fatalf("rx publish-result after the fix: want exit 0, the result on the remote\n%s", out)
			}
			if data, err := os.ReadFile(marker); err == nil {
				t.Fatalf("the copy's pre-receive hook ran: %s\n%s", data, out)
			}
			for _, sub := range []string{"fetch", "clone", "push"} {
				remotesOnRecord(t, lab.RX, lab.Remote.URL, sub)
			}
		})
	}
}
