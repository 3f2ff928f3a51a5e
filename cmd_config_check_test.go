package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"rfhandoff/config"
)

func runConfigCheck(t *testing.T, env string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("RFHANDOFF_CONFIG", env)
	var out, errb bytes.Buffer
	code = Main(append(append([]string{"rfhandoff"}, args...), "config", "check"), &out, &errb)
	return code, out.String(), errb.String()
}

// parseRendered checks that config check's output is itself a policy file.
func parseRendered(t *testing.T, out string) config.Policy {
	t.Helper()
	p, err := config.Parse([]byte(out), "stdout")
	if err != nil {
		t.Fatalf("config check output does not parse back: %v\n%s", err, out)
	}
	return p
}

func TestConfigCheckDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	// Outside a checkout the policy still checks, with a warning that
	// the commands using the checkout refuse to run there.
	code, _, errs := runConfigCheck(t, "")
	if code != 0 || !strings.Contains(errs, "is not inside a git checkout") {
		t.Fatalf("outside a checkout: exit %d, stderr %q; want 0 and the warning", code, errs)
	}
	if err := os.Mkdir(".git", 0o700); err != nil { // a checkout, as found without git
		t.Fatal(err)
	}
	code, out, errs := runConfigCheck(t, "")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "# effective policy from built-in defaults\n") {
		t.Errorf("output does not say it uses the built-in defaults:\n%s", out)
	}
	// The defaults with repo.path resolved: the directory it ran in.
	want := config.Default()
	want.Repo.Path, _ = os.Getwd()
	if p := parseRendered(t, out); !reflect.DeepEqual(p, want) {
		t.Errorf("printed policy differs from the defaults:\n%s", out)
	}
	if !strings.Contains(out, "allow_simulator = false\n") || !strings.Contains(out, "# [tools] allow_simulator = false: rx capture refuses rfhandoff's HackRF simulator") {
		t.Errorf("config check does not show or explain [tools] allow_simulator:\n%s", out)
	}
	if !strings.Contains(out, fmt.Sprintf("\n#   %-27s %s\n", "capture.dir", filepath.Join(want.Repo.Path, ".local", "captures"))) {
		t.Errorf("config check does not print the resolved capture directory:\n%s", out)
	}
}

func TestConfigCheckFilePrecedence(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(config.DefaultFile, "[limits]\nmin_remaining_s = 11\n")
	envFile := write("env.toml", "[limits]\nmin_remaining_s = 12\n")
	flagFile := write("flag.toml", "[limits]\nmin_remaining_s = 13\n")

	for _, tt := range []struct {
		name, env string
		args      []string
		from      string
		want      int
	}{
		{"./rfhandoff.toml", "", nil, config.DefaultFile, 11},
		{"$RFHANDOFF_CONFIG", envFile, nil, envFile, 12},
		{"--config", envFile, []string{"--config", flagFile}, flagFile, 13},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runConfigCheck(t, tt.env, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if !strings.HasPrefix(out, "# effective policy from "+tt.from+"\n") {
				t.Errorf("output does not name %s:\n%s", tt.from, out)
			}
			if got := parseRendered(t, out).Limits.MinRemainingS; got != tt.want {
				t.Errorf("min_remaining_s = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestConfigCheckRejectsBadPolicy(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bad := filepath.Join(dir, "bad.toml")
	body := "[limits]\nmin_remaining_s = 5\nmax_result_bytes = 100000\n[repo]\ntask_branch = \"--upload-pack=x\"\n[limit]\n"
	if err := os.WriteFile(bad, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runConfigCheck(t, "", "--config", bad)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and nothing printed", code, out)
	}
	for _, want := range []string{bad, "4 problems", "limits.min_remaining_s = 5", "limits.max_result_bytes = 100000",
		`repo.task_branch = "--upload-pack=x"`, "unknown table [limit]"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}

	code, _, errs = runConfigCheck(t, "", "--config", filepath.Join(dir, "missing.toml"))
	if code != 1 || !strings.Contains(errs, "missing.toml") {
		t.Errorf("missing --config file: exit %d, stderr %q", code, errs)
	}
}

// config check lists every key of the allowed-signers files with its
// window, and the listing keeps the output a policy file.
func TestConfigCheckShowsKeyWindows(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	alice := "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICUyyNsx7ICVh4x9gSDBHR7HEM28fPOo27bgWN6hY5Vx alice"
	bob := "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILL0gOeAKKJVMfy9K5YysVASkPz2CoNVnLVbawSHMaFY bob"
	signers := filepath.Join(dir, "signers")
	if err := os.WriteFile(signers, []byte("# lab\nmain@lab "+alice+"\nold@lab,x@lab valid-before=\"20210101Z\" "+bob+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pol := filepath.Join(dir, "p.toml")
	if err := os.WriteFile(pol, []byte("[trust]\nresult_signers = \"signers\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runConfigCheck(t, pol)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{
		"# trust.result_signers " + signers + ": 2 key(s)",
		"#   line 2: main@lab SHA256:jjwEBVxzyM+X59mDGwDuCmLLMTzMJQXXyt0yu5RIdaI: no limit\n",
		`#   line 3: old@lab,x@lab SHA256:nxSB03y2zy5RhEqwgrpeIDUY0YjWwJbzwtZodgRdfY0: valid-before="20210101Z" (2021-01-01T00:00:00Z)` + "\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("config check lacks %q:\n%s", w, out)
		}
	}
	parseRendered(t, out)
}

func TestConfigCheckNotify(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile(filepath.Join(dir, "ntfy.token"), []byte("tk_SECRET_77\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(dir, "p.toml")
	write := func(command string) {
		body := "[notify]\nntfy_url = \"https://ntfy.example.org/lab-rf-7f3k\"\nntfy_token_file = \"ntfy.token\"\n" +
			"events = [\"approval_needed\", \"authorization_needed\"]\ncommand = " + command + "\n"
		if err := os.WriteFile(policy, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`[]`)
	code, out, errs := runConfigCheck(t, policy, "-v")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"# notifications to ntfy at ntfy.example.org (bearer token", "#   approval_needed: rfhandoff approval_needed:", "#   authorization_needed:", "24 s left", `Priority 5`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "#   capture_started") {
		t.Errorf("an event outside notify.events is previewed:\n%s", out)
	}
	if strings.Contains(out+errs, "tk_SECRET_77") {
		t.Error("the token reached config check's output")
	}
	parseRendered(t, out)

	// A notification command may never be git.
	write(`["git", "{event}"]`)
	code, _, errs = runConfigCheck(t, policy, "-v")
	if code != 1 || !strings.Contains(errs, `notify.command = "git"`) || !strings.Contains(errs, "may never run") {
		t.Fatalf("exit %d, stderr %q: want git refused as the notification command", code, errs)
	}
	if strings.Contains(errs, "tk_SECRET_77") {
		t.Error("the token reached an error")
	}
}
