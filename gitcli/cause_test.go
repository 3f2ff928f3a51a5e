package gitcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/errlist"
	"rfhandoff/exec"
)

// testdata/remote holds the stderr of real failed calls, git 2.39.5 and
// OpenSSH 9.2 with LC_ALL=C: ssh-* against a test sshd on 127.0.0.1
// (faultkit.SSHD), http-* against git http-backend behind Basic auth
// (faultkit.HTTPRemote) or an httptest server answering with that status,
// clone-* against a file:// remote, git-daemon-* against a git:// port
// nothing listens on (-wine-connect: git.exe under Wine 8) or a git daemon
// asked for a repository it does not serve.
func TestClassifyStderrTranscripts(t *testing.T) {
	tests := []struct {
		file     string
		cause    Cause
		said     string // a part of the line reported
		hintPart string
	}{
		{"ssh-key-not-in-agent.txt", CauseAuth, "root@127.0.0.1: Permission denied (publickey).", "ssh-add"},
		{"ssh-no-agent.txt", CauseAuth, "Permission denied (publickey)", "SSH_AUTH_SOCK"},
		{"ssh-dead-agent.txt", CauseAuth, "Permission denied (publickey)", "ssh-add"},
		{"ssh-host-key-changed.txt", CauseHostKey, "Host key for [127.0.0.1]:41627 has changed",
			`ssh-keygen -f "/tmp/TestSSHDAgentAndFailures2376918271/001/known_hosts" -R "[127.0.0.1]:41627"`},
		{"ssh-host-key-unknown.txt", CauseHostKey, "Host key verification failed.", "accept its key"},
		{"ssh-connection-refused.txt", CauseUnreachable, "ssh: connect to host 127.0.0.1 port 41627: Connection refused", "reachable"},
		{"ssh-could-not-resolve.txt", CauseUnreachable, "Could not resolve hostname nonexistent.invalid", "host and port"},
		{"ssh-repo-not-found.txt", CauseNotFound, "'/nonexistent/repo.git' does not appear to be a git repository", "git remote get-url origin"},
		{"ssh-fetch-missing-ref.txt", CauseNotFound, "couldn't find remote ref refs/heads/nope", "branch name"},
		{"clone-missing-branch.txt", CauseNotFound, "Remote branch nope not found in upstream origin", "never creates it"},
		{"http-no-credentials.txt", CauseAuth, "could not read Username for 'http://127.0.0.1:46733'", "credential helper"},
		{"http-wrong-password.txt", CauseAuth, "Authentication failed for 'http://127.0.0.1:46733/remote.git/'", "were refused"},
		{"http-403.txt", CauseAuth, "The requested URL returned error: 403", "HTTP 403"},
		{"http-repo-not-found.txt", CauseNotFound, "repository 'http://127.0.0.1:46733/nope.git/' not found", "get-url"},
		{"http-500.txt", CauseUnreachable, "returned error: 500", "HTTP 500"},
		{"http-503.txt", CauseUnreachable, "returned error: 503", "retry later"},
		{"http-connection-refused.txt", CauseUnreachable, "Failed to connect to 127.0.0.1 port 38151", "reachable"},
		{"git-daemon-connection-refused.txt", CauseUnreachable, "errno=Connection refused", "reachable"},
		{"git-daemon-no-such-repository.txt", CauseNotFound, "no such repository: /nope.git", "get-url"},
		{"git-daemon-not-exported.txt", CauseNotFound, "repository not exported: /nope.git", "get-url"},
		{"git-daemon-wine-connect.txt", CauseUnreachable, "unable to connect to 127.0.0.1", "reachable"},
		{"http-could-not-resolve.txt", CauseUnreachable, "Could not resolve host: nonexistent.invalid", "reachable"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			stderr, err := os.ReadFile(filepath.Join("testdata", "remote", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			d, ok := classifyStderr(stderr)
			if !ok {
				t.Fatalf("not classified:\n%s", stderr)
			}
			if d.Cause != tt.cause || !strings.Contains(d.Said, tt.said) || !strings.Contains(d.Hint, tt.hintPart) {
				t.Errorf("got %v %q (hint %q), want %v containing %q (hint with %q)", d.Cause, d.Said, d.Hint, tt.cause, tt.said, tt.hintPart)
			}
			if strings.Contains(d.Said, "Please make sure") {
				t.Errorf("reported git's footer %q, not the cause", d.Said)
			}
		})
	}
}

func TestClassifyStderrSynthetic(t *testing.T) {
	tests := []struct {
		name, stderr string
		cause        Cause
		ok           bool
	}{
		// ssh's format for a connect(2) failure, as in ssh-connection-refused.txt.
		{"timed out", "ssh: connect to host 10.0.0.9 port 22: Connection timed out\r\nfatal: Could not read from remote repository.\n", CauseUnreachable, true},
		{"no route", "ssh: connect to host 10.0.0.9 port 22: No route to host\r\n", CauseUnreachable, true},
		{"strict checking, unknown key", "No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\r\nHost key verification failed.\r\n", CauseHostKey, true},
		{"cut while listing refs", "fatal: expected flush after ref listing\n", CauseUnreachable, true},
		{"http 401", "fatal: unable to access 'https://h/r.git/': The requested URL returned error: 401\n", CauseAuth, true},
		{"http 404", "fatal: unable to access 'https://h/r.git/': The requested URL returned error: 404\n", CauseNotFound, true},
		// A server's own text is never evidence.
		{"remote says denied", "remote: Permission denied (publickey).\nremote: Connection refused\nfatal: the remote end hung up unexpectedly\n", 0, false},
		{"only the footer", "fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n", 0, false},
		{"empty", "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := classifyStderr([]byte(tt.stderr))
			if ok != tt.ok || d.Cause != tt.cause {
				t.Errorf("got %v %v (%q), want %v %v", d.Cause, ok, d.Said, tt.cause, tt.ok)
			}
		})
	}
}

// What is shown is sanitized: no terminal control from stderr, no URL
// password.
func TestClassifyStderrCleans(t *testing.T) {
	d, ok := classifyStderr([]byte("fatal: could not read Password for 'https://u:s3cret@h/x\x1b[2J': terminal prompts disabled\n"))
	if !ok || d.Cause != CauseAuth {
		t.Fatalf("got %+v %v", d, ok)
	}
	for _, s := range []string{d.Said, d.Hint} {
		if strings.Contains(s, "s3cret") || strings.Contains(s, "\x1b") {
			t.Errorf("not cleaned: %q", s)
		}
	}
}

// RemoteError leads with the cause and what to do, then the command in
// short; the exec error (full argv) stays reachable.
func TestRemoteErrorMessage(t *testing.T) {
	stderr, err := os.ReadFile(filepath.Join("testdata", "remote", "ssh-no-agent.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ee := &exec.ExitError{Tool: exec.Git, Argv: []string{"/usr/bin/git", "-c", "core.hooksPath=/x", "fetch", "origin"}, Code: 128, StderrTail: string(stderr)}
	got := remoteError("fetch", "git fetch origin rx-node", stderr, ee)
	var re *RemoteError
	if !errors.As(got, &re) || re.Cause != CauseAuth {
		t.Fatalf("got %#v", got)
	}
	lines := strings.Split(got.Error(), "\n")
	want := []string{
		"authentication refused: root@127.0.0.1: Permission denied (publickey).",
		"  what to do: " + hintSSHAuth,
		"  command: git fetch origin rx-node",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("message:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	var back *exec.ExitError
	if !errors.As(got, &back) || !strings.Contains(back.Error(), "core.hooksPath") || !strings.Contains(back.Error(), "Permission denied") {
		t.Errorf("exec error lost or without the cause: %v", back)
	}

	// Unknown stderr, a timeout or an interruption stay an *Error.
	for name, e := range map[string]error{
		"unknown": &exec.ExitError{Tool: exec.Git, Code: 128},
		"timeout": fmt.Errorf("/usr/bin/git fetch: timed out after 1s: %w", context.DeadlineExceeded),
		"cancel":  errlist.Join(&exec.ExitError{Tool: exec.Git, Code: 128}, context.Canceled),
	} {
		in := []byte("fatal: something else\n")
		if name != "unknown" {
			in = stderr
		}
		var ge *opError
		if got := remoteError("fetch", "git fetch origin x", in, e); !errors.As(got, &ge) || errors.As(got, &re) {
			t.Errorf("%s: got %T %v, want *opError", name, got, got)
		}
	}
}
