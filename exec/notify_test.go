package exec

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fakeProgram writes an executable file named name in dir.
func fakeProgram(t *testing.T, dir, name string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The program may be anything but the tools rfhandoff runs itself: a
// shell or an interpreter is a program like any other, since no task
// text is ever among its arguments (PROTOCOL#notifications).
func TestResolveNotifyRefusesToolsAndPaths(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PATH=" + dir}
	good := fakeProgram(t, dir, "notify-send")
	gitBin := fakeProgram(t, dir, "git")
	transfer := fakeProgram(t, dir, "hackrf_transfer")
	fakeProgram(t, dir, "ssh")
	tools := map[Tool]string{Git: gitBin, HackRFTransfer: transfer}

	if p, err := ResolveNotify("notify-send", tools, env); err != nil || p != good {
		t.Fatalf("notify-send: %q %v", p, err)
	}
	for _, name := range []string{"sh", "python3.11", "awk"} {
		want := fakeProgram(t, dir, name)
		if p, err := ResolveNotify(name, tools, env); err != nil || p != want {
			t.Fatalf("%s: %q %v", name, p, err)
		}
	}
	if p, err := ResolveNotify(good, tools, env); err != nil || p != good {
		t.Fatalf("absolute notify-send: %q %v", p, err)
	}
	cases := map[string]string{
		"git":                         "which a notification may never run",
		"hackrf_transfer":             "which a notification may never run",
		"ssh":                         "which a notification may never run",
		"./notify-send":               "bare name",
		"bin/notify-send":             "bare name",
		"no-such-notifier":            "not found",
		filepath.Join(dir, "missing"): filepath.Join(dir, "missing"), // the error names it (its wording is the system's)
		"":                            "no program",
	}
	if runtime.GOOS != "windows" {
		// A symlink with an innocent name to git, and a hard link
		// (the same file) to hackrf_transfer.
		if err := os.Symlink(gitBin, filepath.Join(dir, "ping-me")); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(transfer, filepath.Join(dir, "beep")); err != nil {
			t.Fatal(err)
		}
		cases["ping-me"] = "is git"
		cases["beep"] = "same file as hackrf_transfer"
	}
	for prog, want := range cases {
		if p, err := ResolveNotify(prog, tools, env); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ResolveNotify(%q) = %q, %v; want an error containing %q", prog, p, err, want)
		}
	}
}

func TestStackRunsNotifyOnlyWhenResolved(t *testing.T) {
	dir := t.TempDir()
	gitBin := fakeProgram(t, dir, "git")
	log, err := OpenAuditLog(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The notify program named as the pinned git: refused at resolution.
	s, err := New(Options{Role: RoleNotify, Audit: log, Tools: map[Tool]string{Git: gitBin},
		Environ: []string{"PATH=" + dir}, NotifyProgram: gitBin})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Paths()[Notify]; ok {
		t.Fatal("git resolved as the notification program")
	}
	if err := s.Missing()[Notify]; err == nil || !strings.Contains(err.Error(), "never run") {
		t.Fatalf("missing[notify] = %v", err)
	}
}

func TestRecordDeliveryKeepsTheChain(t *testing.T) {
	path, log := writeLog(t, 2)
	err := log.RecordDelivery(Delivery{Side: "rx", Notification: "approval_needed", Receiver: "ntfy",
		Host: "ntfy.example.org", Status: "failed", Attempts: 3, Duration: 1500 * time.Millisecond,
		Error: "dial https://alice:s3cret@ntfy.example.org/topic: refused"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := VerifyAuditLog(path)
	if err != nil || st.Lines != 3 {
		t.Fatalf("verify: %+v %v", st, err)
	}
	es, err := ReadAuditTail(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := es[0]
	if e.Event != EventDelivery || e.Notification != "approval_needed" || e.Receiver != "ntfy" ||
		e.Host != "ntfy.example.org" || e.Attempts != 3 || e.DurationMS == nil || *e.DurationMS != 1500 || e.Seq != 3 {
		t.Fatalf("delivery line %+v", e)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "s3cret") {
		t.Error("URL credentials reached the audit log")
	}
}
