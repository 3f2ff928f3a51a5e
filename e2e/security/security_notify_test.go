package security

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cli/safeexec"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
)

// pwned is the file a hostile title's code would create in the receiver's
// working directory (the checkout rfhandoff runs in).
const pwned = "PWNED"

// writeNotifyPolicy writes side's policy as it stands, without checking
// it first (WritePolicy would refuse what rfhandoff itself must refuse).
func writeNotifyPolicy(t *testing.T, side *faultkit.Side, command ...string) {
	t.Helper()
	side.Policy.Notify.Command = command
	if err := os.WriteFile(side.PolicyFile, []byte(side.Policy.TOML()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// noPwned fails when a title's code created its file.
func noPwned(t *testing.T, side *faultkit.Side, what string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(side.Dir, pwned)); err == nil {
		t.Errorf("%s: the task title ran as code (%s was created)", what, pwned)
		_ = os.Remove(filepath.Join(side.Dir, pwned))
	}
}

// Finding 3 of issue 29 (PROTOCOL#notifications): a task title never becomes an
// argument of the notification command, so no interpreter can run it,
// whatever its name. A policy placing {title} or {message} in the argv
// is refused before anything runs: the interpreters by their usual
// names, under the versioned or innocent names that slipped past the old
// refusal list (a copy of awk), and a shell.
func TestSecurityNotifyTitleNeverInArgv(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the interpreters are looked up by their Unix names")
	}
	t.Parallel()
	lab := faultkit.NewLab(t)
	type attempt struct {
		name    string
		program string // looked up on PATH
		args    []string
		title   string // code for that program
		copyAs  string // run a copy of the program under this name
	}
	attempts := []attempt{
		{name: "awk", program: "awk", args: []string{"{title}"}, title: `BEGIN { system("touch ` + pwned + `") }`},
		{name: "awk under another name", program: "awk", args: []string{"{title}"}, title: `BEGIN { system("touch ` + pwned + `") }`, copyAs: "lab-notifier"},
		{name: "perl", program: "perl", args: []string{"-e", "{title}"}, title: `system("touch ` + pwned + `")`},
		{name: "python3", program: "python3", args: []string{"-c", "{title}"}, title: `open("` + pwned + `", "w")`},
		{name: "sh", program: "sh", args: []string{"-c", "{title}"}, title: "touch " + pwned},
		{name: "message", program: "awk", args: []string{"{message}"}, title: "Beacon at 433 MHz"},
	}
	for i, a := range attempts {
		path, err := safeexec.LookPath(a.program)
		if err != nil {
			t.Logf("%s: not installed, not tried", a.name)
			continue
		}
		if a.copyAs != "" {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			path = filepath.Join(t.TempDir(), a.copyAs)
			if err := os.WriteFile(path, data, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		writeNotifyPolicy(t, lab.RX, append([]string{path}, a.args...)...)
		id := fmt.Sprintf("SEC_NOTIFY_%04d", i+1)
		lab.PushTask(tasktest.TaskSpec{ID: id, Level: gate.Yellow, Title: a.title})
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		placeholder := a.args[len(a.args)-1]
		if out.Code != 1 || !strings.Contains(out.Stderr, fmt.Sprintf("notify.command[%d]", len(a.args))) ||
			!strings.Contains(out.Stderr, placeholder) || !strings.Contains(out.Stderr, "standard input") {
			t.Errorf("%s: a policy with %s in the argv: want exit 1 naming notify.command[%d] and where the text goes instead\n%s",
				a.name, placeholder, len(a.args), out)
		}
		if strings.Contains(out.Stdout, id) {
			t.Errorf("%s: rx check read the task under a refused policy:\n%s", a.name, out)
		}
		noPwned(t, lab.RX, a.name)
	}
}

// The text reaches a receiver only as data: on standard input as JSON in
// which every character of a value other than a letter or digit is a \u
// escape (so a shell or an interpreter reading its input as a program
// finds no code in it), and in RFHANDOFF_* variables. The argv holds only
// the closed placeholders. Receivers: a script that records what it was
// given, and programs that run their standard input as code.
func TestSecurityNotifyTitleOnlyAsData(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the receivers are Unix programs and a shell script")
	}
	t.Parallel()
	lab := faultkit.NewLab(t)
	// Code for a shell (twice), perl, ruby and Tcl, had it reached them raw.
	title := "$(touch " + pwned + ") `touch " + pwned + "` @{[system(\"touch " + pwned + "\")]} #{system(\"touch " + pwned +
		"\")} } [exec touch " + pwned + "] { ';touch " + pwned + ";'"

	dir := t.TempDir()
	script := filepath.Join(dir, "record.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"+
		"printf '%s\\n' \"$@\" > "+filepath.Join(dir, "argv")+"\n"+
		"env | grep '^RFHANDOFF_' | sort > "+filepath.Join(dir, "env")+"\n"+
		"cat > "+filepath.Join(dir, "stdin")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeNotifyPolicy(t, lab.RX, script, "{event}", "{task_id}", "{risk_level}", "{role}")
	lab.PushTask(tasktest.TaskSpec{ID: "SEC_DATA_0001", Level: gate.Yellow, Title: title})
	if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
		t.Fatalf("rx check with a recording receiver: want exit 10\n%s", out)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the receiver did not run: %v", err)
		}
		return string(data)
	}
	if got, want := read("argv"), "approval_needed\nSEC_DATA_0001\nYELLOW\nrx\n"; got != want {
		t.Errorf("argv %q, want %q (the closed placeholders only)", got, want)
	}
	env := read("env")
	if !strings.Contains(env, "RFHANDOFF_TITLE="+title+"\n") || !strings.Contains(env, "RFHANDOFF_TASK_ID=SEC_DATA_0001\n") ||
		!strings.Contains(env, "RFHANDOFF_EVENT=approval_needed\n") || !strings.Contains(env, "RFHANDOFF_MESSAGE=rfhandoff approval_needed: rx on ") {
		t.Errorf("the environment does not carry the message:\n%s", env)
	}
	stdin := read("stdin")
	var m map[string]string
	if err := json.Unmarshal([]byte(stdin), &m); err != nil || m["title"] != title || m["event"] != "approval_needed" ||
		m["task_id"] != "SEC_DATA_0001" || !strings.Contains(m["message"], "SEC_DATA_0001") {
		t.Errorf("standard input %q: want the message as JSON (%v)", stdin, err)
	}
	if strings.ContainsAny(strings.TrimSuffix(stdin, "\n"), "$`@#[]()';&|<> \t\n") {
		t.Errorf("standard input %q holds characters a shell or an interpreter acts on", stdin)
	}
	noPwned(t, lab.RX, "the recording receiver")

	// Programs that run their standard input as a program.
	for i, program := range []string{"sh", "bash", "perl", "ruby", "tclsh", "python3", "php"} {
		path, err := safeexec.LookPath(program)
		if err != nil {
			t.Logf("%s: not installed, not tried", program)
			continue
		}
		writeNotifyPolicy(t, lab.RX, path)
		lab.PushTask(tasktest.TaskSpec{ID: fmt.Sprintf("SEC_DATA_%04d", i+2), Level: gate.Yellow, Title: title})
		if out := lab.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 10 {
			t.Errorf("rx check with %s as the receiver: want exit 10\n%s", program, out)
		}
		noPwned(t, lab.RX, program+" reading its standard input")
	}
}
