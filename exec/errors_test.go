package exec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// sshFooter is a real git-over-ssh stderr (OpenSSH 9.2, git 2.39): the
// line that says what happened comes before git's four-line footer.
const sshFooter = "root@127.0.0.1: Permission denied (publickey).\r\n" +
	"fatal: Could not read from remote repository.\n\n" +
	"Please make sure you have the correct access rights\nand the repository exists.\n"

func TestErrorMessagesKeepTheCauseLine(t *testing.T) {
	argv := []string{"/usr/bin/git", "fetch", "origin"}
	var long strings.Builder
	for i := range 30 {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"exit: every non-blank line, the cause first", &ExitError{Tool: Git, Argv: argv, Code: 128, StderrTail: sshFooter},
			"/usr/bin/git fetch origin: exit status 128: root@127.0.0.1: Permission denied (publickey). | " +
				"fatal: Could not read from remote repository. | Please make sure you have the correct access rights | and the repository exists."},
		{"timeout keeps stderr", &timeoutError{Tool: Git, Argv: argv, After: time.Second, StderrTail: "ssh: connect to host h port 22: Connection timed out\n"},
			"/usr/bin/git fetch origin: timed out after 1s: ssh: connect to host h port 22: Connection timed out"},
		{"timeout without stderr", &timeoutError{Tool: Git, Argv: argv, After: time.Second},
			"/usr/bin/git fetch origin: timed out after 1s"},
		{"signal, blank stderr", &ExitError{Tool: Git, Argv: argv, Code: -1, Signal: "interrupt", StderrTail: "\n \r\n"},
			"/usr/bin/git fetch origin: killed by interrupt"},
		{"long stderr: its last 20 lines", &ExitError{Tool: Git, Argv: argv, Code: 1, StderrTail: long.String()},
			"/usr/bin/git fetch origin: exit status 1: line 10 | line 11 | line 12 | line 13 | line 14 | line 15 | line 16 | line 17 | " +
				"line 18 | line 19 | line 20 | line 21 | line 22 | line 23 | line 24 | line 25 | line 26 | line 27 | line 28 | line 29"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDetail(t *testing.T) {
	ee := &ExitError{Tool: Git, Argv: []string{"/usr/bin/git", "push"}, Code: 128, StderrTail: sshFooter}
	te := &timeoutError{Tool: Git, Argv: []string{"/usr/bin/git", "fetch"}, After: time.Second}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("publishing: %w", ee), ee.Error()},
		{fmt.Errorf("polling: %w", te), te.Error()},
		{errors.New("no subprocess"), ""},
		{nil, ""},
	} {
		if got := Detail(tt.err); got != tt.want {
			t.Errorf("Detail(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
