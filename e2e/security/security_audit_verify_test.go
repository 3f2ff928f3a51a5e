package security

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/publish"
)

// witnessedHeads are the Audit-Chain-Head trailers of the remote's result
// branch, newest first, with their commits.
func witnessedHeads(t *testing.T, lab *faultkit.Lab) (commits, heads []string) {
	t.Helper()
	out := gittest.Git(t, lab.R, lab.Remote.Dir, "log", "--format=%H %(trailers:key="+publish.AuditTrailer+",valueonly,separator=%x2C)",
		"refs/heads/"+tasktest.ResultBranch)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		commit, head, _ := strings.Cut(line, " ")
		if head != "" {
			commits, heads = append(commits, commit), append(heads, head)
		}
	}
	return commits, heads
}

// rechain rewrites the audit log at path as someone with write access to
// .local would: the lines before line from (1-based) are kept byte for
// byte, the rest are passed to edit (which may drop or change them) and
// chained anew with correct hashes, so that `audit verify` finds nothing.
func rechain(t *testing.T, path string, from int, edit func([]exec.Entry) []exec.Entry) {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	var rest []exec.Entry
	for _, l := range lines[from-1:] {
		var e exec.Entry
		must(t, json.Unmarshal(l, &e))
		rest = append(rest, e)
	}
	out := bytes.Join(lines[:from-1], nil)
	var prev exec.Entry
	must(t, json.Unmarshal(lines[from-2], &prev))
	for _, e := range edit(rest) {
		e.Hash, e.Prev, e.Seq = "", prev.Hash, prev.Seq+1
		body, err := json.Marshal(e)
		must(t, err)
		body = bytes.TrimPrefix(body, []byte(`{"hash":"",`))
		sum := sha256.Sum256(body)
		e.Hash = hex.EncodeToString(sum[:])
		out = append(append(append(out, `{"hash":"`+e.Hash+`",`...), body...), '\n')
		prev = e
	}
	must(t, os.WriteFile(path, out, 0o600))
}

// lineOf is the 1-based line of the audit log holding head.
func lineOf(t *testing.T, path, head string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	for n, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(`{"hash":"`+head+`"`)) {
			return n + 1
		}
	}
	t.Fatalf("head %s is not in %s", head, path)
	return 0
}

// Finding 11 of issue 29 (PROTOCOL#audit-log): a log rewritten with a recomputed
// chain passes `audit verify`, which looks only at the file; `audit
// verify --remote` compares it with the chain heads the result branch
// witnesses (the Audit-Chain-Head trailers of the RX side's pushed
// commits, read through the RX mirror) and names each one the log no
// longer holds, exit 1. A head before the rewritten part still counts.
func TestSecurityAuditVerifyAgainstPushedHeads(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	for _, id := range []string{"SEC_CHAIN_0001", "SEC_CHAIN_0002"} {
		commit, data := lab.PushTask(tasktest.Capture(id))
		lab.Approve(id, data, commit)
		if out := lab.RX.Run(faultkit.Wait, "rx", "publish-result", lab.WriteResult(lab.Encode(lab.Ready(id)))); out.Code != 0 {
			t.Fatalf("publishing %s\n%s", id, out)
		}
	}
	commits, heads := witnessedHeads(t, lab)
	if len(heads) != 2 {
		t.Fatalf("the result branch witnesses %d heads (%v), want 2", len(heads), heads)
	}
	log := lab.RX.AuditPath()

	ok := lab.RX.Run(faultkit.Wait, "audit", "verify", "--remote")
	if ok.Code != 0 || !strings.Contains(ok.Stdout, "intact") || !strings.Contains(ok.Stdout, "2 chain heads") {
		t.Fatalf("audit verify --remote on the log as written: want exit 0, both heads found\n%s", ok)
	}

	// Rewrite everything after the older head: drop the newer publish's
	// push (its start and end lines), chain the rest anew.
	older := lineOf(t, log, heads[1])
	rechain(t, log, older+1, func(es []exec.Entry) []exec.Entry {
		var out []exec.Entry
		for _, e := range es {
			if a := faultkit.GitArgs(e); len(a) > 0 && a[0] == "push" {
				continue
			}
			out = append(out, e)
		}
		if len(out) == len(es) {
			t.Fatal("no push line after the older head to drop")
		}
		return out
	})
	if local := lab.RX.Run(faultkit.Wait, "audit", "verify"); local.Code != 0 {
		t.Fatalf("the rewritten log: plain audit verify should find it intact (what the finding was)\n%s", local)
	}
	bad := lab.RX.Run(faultkit.Wait, "audit", "verify", "--remote")
	t.Logf("audit verify --remote on the rewritten log:\n%s", bad)
	if bad.Code != 1 {
		t.Errorf("audit verify --remote on a rewritten log: want exit 1\n%s", bad)
	}
	missing := regexp.MustCompile(`(?m)^.*missing.*$`).FindAllString(bad.All(), -1)
	if !strings.Contains(bad.All(), commits[0]) || !strings.Contains(bad.All(), heads[0]) {
		t.Errorf("audit verify --remote does not name the newer commit %s and its head %s\n%s", commits[0], heads[0], bad)
	}
	for _, l := range missing {
		if strings.Contains(l, heads[1]) || strings.Contains(l, commits[1]) {
			t.Errorf("the older head, before the rewrite, is reported missing: %s", l)
		}
	}

	// A log deleted and begun afresh holds neither.
	must(t, os.Remove(log))
	fresh := lab.RX.Run(faultkit.Wait, "audit", "verify", "--remote")
	if fresh.Code != 1 || !strings.Contains(fresh.All(), heads[0]) || !strings.Contains(fresh.All(), heads[1]) {
		t.Errorf("audit verify --remote on a new log: want exit 1 naming both heads\n%s", fresh)
	}
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
