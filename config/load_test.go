package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

const examplePath = "../config.toml.example"

func TestExampleIsCompleteAndDefault(t *testing.T) {
	data, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	var raw Policy
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		t.Fatalf("example does not decode: %v", err)
	}
	if u := md.Undecoded(); len(u) != 0 {
		t.Errorf("example has undecoded keys: %v", u)
	}
	tables, _ := knownKeys()
	for k := range tables {
		if !md.IsDefined(strings.Split(k, "\x00")...) {
			t.Errorf("example does not set %s", formatKey(strings.Split(k, "\x00")))
		}
	}
	p, err := Parse(data, examplePath)
	if err != nil {
		t.Fatalf("example rejected: %v", err)
	}
	if !reflect.DeepEqual(p, Default()) {
		t.Errorf("example differs from Default():\n%s\nwant\n%s", p.TOML(), Default().TOML())
	}
}

func TestDefaultIsValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default() invalid: %v", err)
	}
}

func TestEmptyFileIsDefault(t *testing.T) {
	p, err := Parse(nil, "empty.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, Default()) {
		t.Errorf("empty file differs from Default()")
	}
}

func TestPartialFileKeepsOtherDefaults(t *testing.T) {
	p, err := Parse([]byte("[poll]\nrx_interval = \"2s\"\n[limits]\nmin_remaining_s = 20\n"), "p.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Poll.RXInterval.Duration = 2e9
	want.Limits.MinRemainingS = 20
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got\n%s\nwant\n%s", p.TOML(), want.TOML())
	}
}

// problemsOf returns the individual problems of a Parse error, failing the
// test unless err names the file name.
func problemsOf(t *testing.T, err error, name string) []error {
	t.Helper()
	if err == nil {
		t.Fatal("accepted, want an error")
	}
	if !strings.HasPrefix(err.Error(), "policy "+name+": ") {
		t.Errorf("error does not name the file %q: %v", name, err)
	}
	return flatten(err)
}

// unknownKeysOf is the keys and tables the problems call unknown, as
// written ("unknown key <k>", "unknown table [<k>]").
func unknownKeysOf(errs []error) []string {
	var keys []string
	for _, e := range errs {
		msg, _, _ := strings.Cut(e.Error(), " (did you mean ")
		if k, ok := strings.CutPrefix(msg, "unknown key "); ok {
			keys = append(keys, k)
		} else if k, ok := strings.CutPrefix(msg, "unknown table ["); ok {
			keys = append(keys, strings.TrimSuffix(k, "]"))
		}
	}
	return keys
}

// fieldKeysOf is the keys of the problems that reject a value
// ("<key> = <value>: <reason>").
func fieldKeysOf(errs []error) []string {
	var keys []string
	for _, e := range errs {
		if k, _, ok := strings.Cut(e.Error(), " = "); ok && !strings.HasPrefix(k, "unknown ") {
			keys = append(keys, k)
		}
	}
	return keys
}

func TestUnknownKeysRejected(t *testing.T) {
	tests := []struct {
		name, doc  string
		wantKeys   []string
		wantInText []string
	}{
		{"unknown key", "[limits]\nmin_remaning_s = 10\n",
			[]string{"limits.min_remaning_s"}, []string{"unknown key limits.min_remaning_s", "did you mean limits.min_remaining_s"}},
		{"typo'd table", "[limit]\nmin_remaining_s = 5\nmax_result_bytes = 1\n",
			[]string{"limit"}, []string{"unknown table [limit]", "did you mean [limits]"}},
		{"key in the wrong table", "[poll]\nmin_remaining_s = 20\n",
			[]string{"poll.min_remaining_s"}, []string{"did you mean limits.min_remaining_s"}},
		{"key of two tables in a third", "[poll]\nfrequency_hz = 1\n",
			[]string{"poll.frequency_hz"}, []string{"did you mean capture.frequency_hz"}},
		{"top-level key", "enabled = true\n",
			[]string{"enabled"}, []string{"unknown table [enabled]"}},
		{"case variant of a real key", "[limits]\nMIN_REMAINING_S = 20\n",
			[]string{"limits.MIN_REMAINING_S"}, []string{"did you mean limits.min_remaining_s"}},
		{"case variant beside the real key", "[tx]\nenabled = false\nEnabled = true\n",
			[]string{"tx.Enabled"}, nil},
		{"case variant of a table", "[TX]\nenabled = true\n",
			[]string{"TX"}, []string{"did you mean [tx]"}},
		{"nested table", "[tx.extra]\nx = 1\n",
			[]string{"tx.extra"}, nil},
		{"quoted odd key", "[repo]\n\"path\\u0000\" = \"x\"\n",
			[]string{`repo."path\u0000"`}, nil},
		{"several at once", "[repo]\nbranch = \"x\"\n[tx]\nenable = true\n[nope]\n",
			[]string{"repo.branch", "tx.enable", "nope"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc), "p.toml")
			errs := problemsOf(t, err, "p.toml")
			if got := unknownKeysOf(errs); !reflect.DeepEqual(got, tt.wantKeys) {
				t.Errorf("unknown keys = %q, want %q (error: %v)", got, tt.wantKeys, err)
			}
			for _, s := range tt.wantInText {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestLoosenedLimitsRejected(t *testing.T) {
	tests := []struct{ doc, key, value string }{
		{"[limits]\nmin_remaining_s = 5\n", "limits.min_remaining_s", "5"},
		{"[limits]\nmax_result_bytes = 100000\n", "limits.max_result_bytes", "100000"},
		{"[limits]\nmax_task_bytes = 65537\n", "limits.max_task_bytes", "65537"},
		{"[limits]\nplanned_duration_s = 5\n", "limits.planned_duration_s", "5"},
		{"[limits]\nplanned_duration_s = 3601\n", "limits.planned_duration_s", "3601"},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc), "p.toml")
			errs := problemsOf(t, err, "p.toml")
			if keys := fieldKeysOf(errs); !contains(keys, tt.key) {
				t.Fatalf("problems %q do not include %s: %v", keys, tt.key, err)
			}
			if !strings.Contains(err.Error(), tt.key+" = "+tt.value) {
				t.Errorf("error %q does not show %s = %s", err, tt.key, tt.value)
			}
		})
	}
}

func TestBadBranchRejected(t *testing.T) {
	for _, b := range []string{"--upload-pack=x", "-x", "a..b", "a b", "a/", "/a", "a//b", "x.lock", "x.", "HEAD", "a:b", "a~1", "a^", "@{-1}", "", strings.Repeat("a", 101)} {
		for _, key := range []string{"task_branch", "result_branch"} {
			doc := "[repo]\n" + key + " = " + tomlString(b) + "\n"
			_, err := Parse([]byte(doc), "p.toml")
			errs := problemsOf(t, err, "p.toml")
			if keys := fieldKeysOf(errs); !contains(keys, "repo."+key) {
				t.Errorf("%s = %q accepted (problems %q)", key, b, keys)
			}
		}
	}
	for _, r := range []string{"--upload-pack=x", "-x", "a..b", "a/b", "x.lock", "a b", strings.Repeat("r", 65)} {
		_, err := Parse([]byte("[repo]\nremote = "+tomlString(r)+"\n"), "p.toml")
		if keys := fieldKeysOf(problemsOf(t, err, "p.toml")); !contains(keys, "repo.remote") {
			t.Errorf("remote %q accepted", r)
		}
	}
}

func TestGoodBranchesAccepted(t *testing.T) {
	for _, b := range []string{"main", "rx-node-2", "feature/x_1.2", "A", strings.Repeat("a", 100), "v1.0/rc-2"} {
		p := Default()
		p.Repo.TaskBranch = b
		if err := p.Validate(); err != nil {
			t.Errorf("task_branch %q rejected: %v", b, err)
		}
	}
}

func TestEveryProblemReportedAtOnce(t *testing.T) {
	doc := `
[repo]
task_branch = "--upload-pack=evil"
remote = "-x"
[limits]
min_remaining_s = 5
max_result_bytes = 100000
[tx]
action = "shell"
tx_vga_gain_db = 40
[bogus]
`
	_, err := Parse([]byte(doc), "lab.toml")
	errs := problemsOf(t, err, "lab.toml")
	wantFields := []string{"repo.remote", "repo.task_branch", "limits.max_result_bytes", "limits.min_remaining_s", "tx.action", "tx.tx_vga_gain_db"}
	got := fieldKeysOf(errs)
	for _, k := range wantFields {
		if !contains(got, k) {
			t.Errorf("problem with %s not reported; got %q", k, got)
		}
	}
	if uk := unknownKeysOf(errs); !reflect.DeepEqual(uk, []string{"bogus"}) {
		t.Errorf("unknown keys = %q, want [bogus]", uk)
	}
	if !strings.Contains(err.Error(), "7 problems") {
		t.Errorf("error does not count its problems: %v", err)
	}
	for _, e := range errs {
		if !strings.Contains(err.Error(), e.Error()) {
			t.Errorf("message does not list %q", e)
		}
	}
}

func TestSyntaxAndTypeErrorsNameTheFile(t *testing.T) {
	for _, doc := range []string{
		"[limits\n",
		"[limits]\nmin_remaining_s = \"ten\"\n",
		"[poll]\nrx_interval = 5\n",
		"[poll]\nrx_interval = \"5 seconds\"\n",
		"[tx]\nenabled = \"yes\"\n",
		"[tools]\nallow_simulator = \"yes\"\n",
		"[tools]\nallow_simulator = 1\n",
		"[limits]\nmin_remaining_s = 10\nmin_remaining_s = 20\n",
		"limits = 5\n",
		"[[limits]]\n",
		"[limits]\nmax_task_bytes = 1.5\n",
	} {
		_, err := Parse([]byte(doc), "bad.toml")
		if err == nil {
			t.Errorf("accepted %q", doc)
			continue
		}
		if !strings.HasPrefix(err.Error(), "policy bad.toml: ") {
			t.Errorf("%q: error %v does not name the file", doc, err)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	if err := os.WriteFile(good, []byte("[limits]\nmin_remaining_s = 15\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(good)
	if err != nil {
		t.Fatal(err)
	}
	if p.Limits.MinRemainingS != 15 {
		t.Errorf("Load: min_remaining_s = %d, want 15", p.Limits.MinRemainingS)
	}

	missing := filepath.Join(dir, "missing.toml")
	_, err = Load(missing)
	if err == nil || !strings.HasPrefix(err.Error(), "policy "+missing+": ") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want an error naming it and wrapping ErrNotExist", err)
	}

	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", maxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), big) {
		t.Errorf("Load(oversized) = %v, want an error naming the file", err)
	}

	t.Chdir(dir) // no checkout: repo.path stays the working directory
	p, err = LoadLocated("")
	want := Default()
	want.Repo.Path, _ = os.Getwd()
	if err != nil || !reflect.DeepEqual(p, want) {
		t.Errorf("LoadLocated(\"\") = %v, %v; want Default() with repo.path the working directory", p, err)
	}
}

func TestTOMLRoundTrips(t *testing.T) {
	p := Default()
	p.Poll.MaxBackoff.Duration = 90 * 60e9
	p.Poll.RXInterval.Duration = 1500e6
	p.Repo.StateDir = "/var/lib/rfhandoff"
	p.Capture.Serial = "0000000000000000a06063c8234e925f"
	p.Capture.DetectMinS = 1.25
	p.Tools.AllowSimulator = true
	p.TX = TX{Enabled: true, Action: TXActionHackRFTransfer, IQFile: "tx/burst.ci8", FrequencyHz: 915e6,
		SampleRateHz: 10e6, TXVGAGainDB: 20, MaxTXVGAGainDB: 30, Amp: true, DurationS: 5}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	out := p.TOML()
	for _, want := range []string{`max_backoff = "1h30m"`, `rx_interval = "1.5s"`, `git_timeout = "1m"`, "allow_simulator = true"} {
		if !strings.Contains(out, want) {
			t.Errorf("rendering lacks %s:\n%s", want, out)
		}
	}
	q, err := Parse([]byte(out), "rendered")
	if err != nil {
		t.Fatalf("rendered policy does not parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("round trip changed the policy:\n%s\nvs\n%s", out, q.TOML())
	}
}

func TestLocate(t *testing.T) {
	exists := func(present ...string) func(string) error {
		return func(p string) error {
			if contains(present, p) {
				return nil
			}
			return &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
		}
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvVar {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		flag    string
		env     string
		present []string
		want    string
		wantErr bool
	}{
		{"flag wins over env and cwd file", "a.toml", "b.toml", []string{"a.toml", "b.toml", DefaultFile}, "a.toml", false},
		{"env wins over cwd file", "", "b.toml", []string{"b.toml", DefaultFile}, "b.toml", false},
		{"cwd file when nothing named", "", "", []string{DefaultFile}, DefaultFile, false},
		{"built-in defaults", "", "", nil, "", false},
		{"missing flag file is an error", "a.toml", "", []string{DefaultFile}, "", true},
		{"missing env file is an error", "", "b.toml", []string{DefaultFile}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Locate(tt.flag, env(tt.env), exists(tt.present...))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("Locate = %q, %v; want %q, error %v", got, err, tt.want, tt.wantErr)
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("error %v does not wrap ErrNotExist", err)
			}
		})
	}

	// A cwd file that cannot be inspected is an error, not the defaults.
	denied := func(string) error { return &fs.PathError{Op: "stat", Path: DefaultFile, Err: fs.ErrPermission} }
	if got, err := Locate("", env(""), denied); err == nil {
		t.Errorf("Locate with unreadable %s = %q, nil; want an error", DefaultFile, got)
	}
}

func TestLocateWithRealFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if got, err := Locate("", func(string) string { return "" }, statFile); err != nil || got != "" {
		t.Fatalf("empty dir: Locate = %q, %v", got, err)
	}
	if err := os.WriteFile(DefaultFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Locate("", func(string) string { return "" }, statFile); err != nil || got != DefaultFile {
		t.Fatalf("with %s: Locate = %q, %v", DefaultFile, got, err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	if err := toml.NewEncoder(&b).Encode(map[string]string{"v": s}); err != nil {
		panic(err)
	}
	return strings.TrimSpace(strings.TrimPrefix(b.String(), "v = "))
}

func TestWindowsEditedFileAccepted(t *testing.T) {
	// A policy saved by a Windows editor: byte-order mark and CRLF.
	p, err := Parse([]byte("\xef\xbb\xbf[repo]\r\npath = \"/srv/rx\"\r\n"), "w.toml")
	if err != nil || p.Repo.Path != "/srv/rx" {
		t.Fatalf("Parse = %q, %v", p.Repo.Path, err)
	}
}

// A policy that is a symlink is refused, even to a valid policy, naming
// the link: the safety policy is the file that was looked at.
func TestLoadRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.toml")
	if err := os.WriteFile(target, []byte("[tx]\nenabled = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(target); err != nil {
		t.Fatalf("the target itself: %v", err)
	}
	link := filepath.Join(dir, "rfhandoff.toml")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create a symlink here: %v", err)
	}
	if _, err := os.ReadFile(link); err != nil {
		t.Skipf("the link does not resolve here (Wine's emulation): %v", err)
	}
	_, err := Load(link)
	if err == nil || !strings.HasPrefix(err.Error(), "policy "+link+": ") || !strings.Contains(err.Error(), "a symlink") {
		t.Errorf("Load(symlink) = %v, want a refusal naming the link", err)
	}
}

// A policy inside a git working tree is refused before it is read, named
// as it was given, whether the tree's .git is a directory or a linked
// worktree's file and whether the file is reached through a link to a
// directory in the tree: git writes files there (PROTOCOL#policy-file). The same
// file outside every tree loads.
func TestLoadRefusesAPolicyInAWorkTree(t *testing.T) {
	root := t.TempDir()
	policy := "[tx]\nenabled = false\n"
	outside := filepath.Join(root, "rfhandoff.toml")
	if err := os.WriteFile(outside, []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(outside); err != nil {
		t.Fatalf("outside every working tree: %v", err)
	}
	for _, c := range []struct {
		name    string
		gitFile bool
	}{{"clone", false}, {"linked worktree", true}} {
		tree := filepath.Join(root, strings.ReplaceAll(c.name, " ", "-"))
		sub := filepath.Join(tree, "docs", "handoff")
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		if c.gitFile {
			if err := os.WriteFile(filepath.Join(tree, ".git"), []byte("gitdir: /elsewhere/.git/worktrees/x\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Mkdir(filepath.Join(tree, ".git"), 0o700); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{filepath.Join(tree, DefaultFile), filepath.Join(sub, "p.toml")} {
			if err := os.WriteFile(p, []byte(policy), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(p)
			if err == nil || !strings.HasPrefix(err.Error(), "policy "+p+": lies inside the git working tree "+tree+": ") ||
				!strings.Contains(err.Error(), "--config or $"+EnvVar) {
				t.Errorf("%s: Load(%s) = %v; want a refusal naming the file and the tree", c.name, p, err)
			}
		}
		link := filepath.Join(root, c.name+" link")
		if err := os.Symlink(sub, link); err != nil {
			continue // no symlinks here
		}
		if _, err := os.Stat(filepath.Join(link, "p.toml")); err != nil {
			t.Logf("%s: the link does not resolve here (Wine's emulation): %v", c.name, err)
			continue
		}
		if _, err := Load(filepath.Join(link, "p.toml")); err == nil || !strings.Contains(err.Error(), "inside the git working tree "+tree) {
			t.Errorf("%s through a link to a directory in it: %v; want a refusal", c.name, err)
		}
	}
}

// The simulator is refused unless a policy says simulation is intended.
func TestAllowSimulatorDefaultsToFalse(t *testing.T) {
	if Default().Tools.AllowSimulator {
		t.Fatal("Default() allows the simulator")
	}
	if !strings.Contains(Default().TOML(), "allow_simulator = false") {
		t.Errorf("config check would not show allow_simulator:\n%s", Default().TOML())
	}
	p, err := Parse([]byte("[tools]\nallow_simulator = true\n"), "rehearsal.toml")
	if err != nil || !p.Tools.AllowSimulator {
		t.Fatalf("allow_simulator = true: %v, %v", p.Tools.AllowSimulator, err)
	}
	_, err = Parse([]byte("[tools]\nallow_simulator = \"yes\"\n"), "bad.toml")
	if err == nil || !strings.Contains(err.Error(), "allow_simulator") {
		t.Errorf("a string for allow_simulator: %v, want an error naming the key", err)
	}
}

// statFile is the stat function Locate is given outside tests.
func statFile(path string) error {
	_, err := os.Stat(path)
	return err
}
