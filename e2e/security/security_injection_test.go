package security

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
)

// setRawPolicy writes side's policy with the TOML line of key (in table)
// replaced by key = value, bypassing validation: a hand-edited policy.
func setRawPolicy(t *testing.T, side *faultkit.Side, table, key, value string) {
	t.Helper()
	text := side.Policy.TOML()
	re := regexp.MustCompile(`(?ms)(^\[` + regexp.QuoteMeta(table) + `\]\n.*?^)` + regexp.QuoteMeta(key) + ` = [^\n]*$`)
	if !re.MatchString(text) {
		t.Fatalf("no %s.%s in the rendered policy", table, key)
	}
	q, _ := json.Marshal(value) // a valid TOML basic string for these values
	text = re.ReplaceAllStringFunc(text, func(m string) string {
		return re.FindStringSubmatch(m)[1] + key + " = " + string(q)
	})
	if err := os.WriteFile(side.PolicyFile, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkNoInjection checks that value never reached git where an option is
// read (before --end-of-options or --) in side's audit log, and that the
// marker an injected command would create does not exist.
func checkNoInjection(t *testing.T, side *faultkit.Side, value, marker string) {
	t.Helper()
	for _, e := range faultkit.GitStarts(faultkit.AuditEntries(t, side.AuditPath()), "") {
		if faultkit.ValueBeforeSeparator(faultkit.GitArgs(e), value) {
			t.Errorf("%q reached git as an option: %q", value, e.Argv)
		}
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("%s exists: an injected command ran", marker)
	}
}

// Invariant: nothing that comes from data (the policy, the task file, the
// result, a command-line argument, the remote's URL) reaches git as an
// option. Each attempt is refused with a message naming the field, or
// passed after --end-of-options where git reads it as a name; no injected
// command ever runs.
func TestSecurityOptionInjection(t *testing.T) {
	t.Parallel()
	marker := func(t *testing.T) string { return filepath.Join(t.TempDir(), "pwned") }

	t.Run("policy values", func(t *testing.T) {
		t.Parallel()
		for _, c := range []struct{ table, key, value string }{
			{"repo", "remote", "-oProxyCommand=touch MARKER"},
			{"repo", "remote", "--upload-pack=touch MARKER"},
			{"repo", "task_branch", "--upload-pack=touch MARKER"},
			{"repo", "result_branch", "--output=MARKER"},
			{"repo", "task_file", "--output=MARKER"},
			{"repo", "result_dir", "--output=MARKER"},
			{"repo", "path", "--upload-pack=touch MARKER"},
			{"capture", "serial", "-t MARKER"},
		} {
			lab := faultkit.NewLab(t)
			m := marker(t)
			value := strings.ReplaceAll(c.value, "MARKER", m)
			setRawPolicy(t, lab.RX, c.table, c.key, value)
			for _, args := range [][]string{{"rx", "check"}, {"rx", "publish-result", lab.WriteResult([]byte("{}"))}} {
				out := lab.RX.Run(faultkit.Wait, args...)
				if out.Code != 1 || !strings.Contains(out.Stderr, c.table+"."+c.key) {
					t.Errorf("%s.%s = %q, %s: want exit 1 naming the key\n%s", c.table, c.key, value, args[1], out)
				}
			}
			checkNoInjection(t, lab.RX, value, m)
			if es := faultkit.GitStarts(faultkit.AuditEntries(t, lab.RX.AuditPath()), ""); len(es) != 0 {
				t.Errorf("%s.%s invalid, yet git ran %d times", c.table, c.key, len(es))
			}
		}
	})

	t.Run("task fields", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		m := marker(t)
		upload, output := "--upload-pack=touch "+m, "--output="+m
		for _, c := range []struct{ field, spec, value string }{
			{"SOURCE_BRANCH", "source", upload},
			{"EXPECTED_HEAD", "head", output},
			{"TASK_ID", "id", output},
		} {
			s := tasktest.Capture("SEC_INJECT_0001")
			switch c.spec {
			case "source":
				s.SourceBranch = c.value
			case "head":
				s.ExpectedHead = c.value
			case "id":
				s.ID = c.value
			}
			lab.PushTask(s)
			out := lab.RX.Run(faultkit.Wait, "rx", "check")
			if out.Code != 1 || !strings.Contains(out.Stderr, c.field) {
				t.Errorf("task with %s = %q: want exit 1 naming the field\n%s", c.field, c.value, out)
			}
			checkNoInjection(t, lab.RX, c.value, m)
		}
	})

	t.Run("result fields and flags", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		m := marker(t)
		upload, output := "--upload-pack=touch "+m, "--output="+m
		commit, data := lab.PushTask(tasktest.Capture("SEC_INJECT_0002"))
		lab.Approve("SEC_INJECT_0002", data, commit)
		good := lab.Ready("SEC_INJECT_0002")
		raw := string(lab.Encode(good))
		for _, c := range []struct {
			name string
			args []string
			val  string
		}{
			{"task_id", []string{"rx", "publish-result", lab.WriteResult([]byte(strings.Replace(raw, `"SEC_INJECT_0002"`, jsonString(output), 1)))}, output},
			{"source_head", []string{"rx", "publish-result", lab.WriteResult([]byte(strings.Replace(raw, good.SourceHead, upload, 1)))}, upload},
			{"--result-branch", []string{"rx", "publish-result", "--result-branch=" + upload, lab.WriteResult([]byte(raw))}, upload},
			{"approve TASK_ID", []string{"rx", "approve", "--", output}, output},
			{"tx execute RECORD", []string{"tx", "execute", "--", output}, output},
		} {
			side := lab.RX
			if c.args[0] == "tx" {
				side = lab.Main
			}
			out := side.Run(faultkit.Wait, c.args...)
			if out.Code == 0 {
				t.Errorf("%s = %q: accepted\n%s", c.name, c.val, out)
			}
			checkNoInjection(t, side, c.val, m)
		}
		// The same hostile fields on the result branch, read by tx watch.
		bad := strings.Replace(strings.Replace(raw, `"SEC_INJECT_0002"`, jsonString(output), 1), good.SourceHead, upload, 1)
		lab.PushResult([]byte(bad))
		w := lab.Main.Start("tx", "watch")
		w.Stdout.WaitForText("refused, not offered for authorization", faultkit.Wait)
		checkNoInjection(t, lab.Main, output, m)
		checkNoInjection(t, lab.Main, upload, m)
	})

	t.Run("remote URLs", func(t *testing.T) {
		t.Parallel()
		for _, url := range []string{
			"--upload-pack=touch MARKER",
			"ext::sh -c touch% MARKER",
			"ssh://-oProxyCommand=touch%20MARKER/remote.git",
			"-oProxyCommand=touch MARKER:remote.git",
		} {
			lab := faultkit.NewLab(t)
			lab.PushTask(tasktest.Capture("SEC_INJECT_0003"))
			m := marker(t)
			url = strings.ReplaceAll(url, "MARKER", m)
			lab.RX.SetRemoteURL(url)
			if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 1 {
				t.Errorf("remote URL %q: want exit 1\n%s", url, out)
			}
			if _, err := os.Stat(m); !os.IsNotExist(err) {
				t.Errorf("remote URL %q: %s exists: an injected command ran", url, m)
			}
		}
	})
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
