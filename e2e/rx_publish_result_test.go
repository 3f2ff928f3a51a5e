package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
	"rfhandoff/result"
)

// TestRxPublishResultExitCodes runs `rfhandoff rx publish-result` through
// Main against a real bare remote: 0 and "published <commit>" first, 0 and
// "already published (identical)" for the same file again, 1 with the
// failed check named for a refusal, 1 for a missing result branch and an
// oversized file.
func TestRxPublishResultExitCodes(t *testing.T) {
	home := gittest.Home(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	f := publishtest.New(t, publishtest.Options{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rfhandoff.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[repo]\npath = %q\n", f.Checkout)), 0o600); err != nil {
		t.Fatal(err)
	}
	writeResult := func(name string, r *result.Result) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, publishtest.Encode(t, r), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	publishResult := func(args ...string) (int, string, string) {
		return run(t, append([]string{"--config", cfg, "rx", "publish-result"}, args...)...)
	}

	ready := writeResult("ready.json", f.Ready())
	code, out, errOut := publishResult(ready)
	m := regexp.MustCompile(`^published ([0-9a-f]{40})\n$`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("first publish: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if tip := f.ResultTip(t); tip != m[1] {
		t.Errorf("result branch tip %s, printed %s", tip, m[1])
	}
	// The trailer names a line of the command's own audit log.
	trailer := strings.TrimSpace(gittest.Git(t, f.Runner, f.Remote.Dir, "log", "-1", "--format=%(trailers:key="+publish.AuditTrailer+",valueonly)", m[1]))
	log, err := os.ReadFile(filepath.Join(f.Checkout, ".local", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(trailer) != 64 || !strings.Contains(string(log), `{"hash":"`+trailer+`"`) {
		t.Errorf("trailer %q is not a line hash of .local/audit.jsonl", trailer)
	}

	code, out, errOut = publishResult(ready)
	if code != 0 || out != "already published (identical) at "+m[1]+"\n" {
		t.Errorf("republish: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	refs := f.Refs(t)
	wrongHead := f.Ready()
	wrongHead.SourceHead = strings.Repeat("a", 40)
	code, out, errOut = publishResult(writeResult("wrong-head.json", wrongHead))
	if code != 1 || out != "" || !strings.Contains(errOut, "rfhandoff: check 5 (source head): source_head is") {
		t.Errorf("refused publish: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	code, _, errOut = publishResult(ready, "--result-branch", "rx-node-missing")
	if code != 1 || !strings.Contains(errOut, "check 6 (result branch): remote branch origin/rx-node-missing does not exist") {
		t.Errorf("missing branch: exit %d, stderr %q", code, errOut)
	}

	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), 70000), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = publishResult(big)
	if code != 1 || !strings.Contains(errOut, "more than 65536 bytes") {
		t.Errorf("oversized file: exit %d, stderr %q", code, errOut)
	}
	if got := f.Refs(t); got != refs {
		t.Errorf("refused publishes changed the remote:\n%s\nwant:\n%s", got, refs)
	}
}

// TestRxPublishResultGitCalls counts the git subprocesses of a whole `rx
// publish-result` once the RX mirror exists: the remote's URL is read once
// (to pick the runner's transport, then reused by the mirror and the
// clone), check 6 is the result branch's clone (no ls-remote), and the push
// is the last call. A count from the audit log, not a time.
func TestRxPublishResultGitCalls(t *testing.T) {
	home := gittest.Home(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	f := publishtest.New(t, publishtest.Options{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rfhandoff.toml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, "[repo]\npath = %q\n", f.Checkout), 0o600); err != nil {
		t.Fatal(err)
	}
	auditPath := filepath.Join(f.Checkout, ".local", "audit.jsonl")
	for n, r := range []*result.Result{f.Ready(), f.Ready()} {
		r.CapturePID += int64(n)
		file := filepath.Join(dir, fmt.Sprintf("result-%d.json", n))
		if err := os.WriteFile(file, publishtest.Encode(t, r), 0o600); err != nil {
			t.Fatal(err)
		}
		before := len(faultkit.AuditEntries(t, auditPath))
		if code, out, errOut := run(t, "--config", cfg, "rx", "publish-result", file); code != 0 {
			t.Fatalf("publish %d: exit %d\n%s%s", n, code, out, errOut)
		}
		if n == 0 {
			continue // builds the mirror
		}
		var subs []string
		for _, e := range faultkit.GitStarts(faultkit.AuditEntries(t, auditPath)[before:], "") {
			subs = append(subs, faultkit.GitArgs(e)[0])
		}
		count := func(sub string) int {
			k := 0
			for _, s := range subs {
				if s == sub {
					k++
				}
			}
			return k
		}
		// First the checks before anything is written (PROTOCOL#rx-state: the
		// checkout's top, .local ignored, nothing trusted tracked); the
		// remote's URL is then one git config listing (no remote get-url:
		// every redirect is judged from it, PROTOCOL#subprocesses), and the clone
		// is checked the same way before it pushes.
		if len(subs) != 21 || strings.Join(subs[:4], " ") != "rev-parse check-ignore ls-files config" || count("remote") != 0 ||
			count("ls-files") != 1 || count("ls-remote") != 0 || count("clone") != 1 || subs[len(subs)-1] != "push" {
			t.Errorf("git calls of one publish: %d %q; want 21, the checkout checks (rev-parse, check-ignore, ls-files), the remote's URL from one git config, one ls-files, one clone, no ls-remote, the push last", len(subs), subs)
		}
	}
}
