package gitcli

import (
	"fmt"
	"regexp"
	"strings"

	"rfhandoff/exec"
	"rfhandoff/hiddentext"
)

// Cause is why a call to the remote failed, as git's and ssh's stderr say.
type Cause int

const (
	CauseAuth        Cause = iota + 1 // the remote refused our credentials, or we had none to give
	CauseHostKey                      // ssh does not know the server's host key, or it changed
	CauseUnreachable                  // no connection: refused, timed out, no route, name unknown, HTTP 5xx
	CauseNotFound                     // the repository or the branch is not there
)

var causeNames = map[Cause]string{CauseAuth: "authentication refused", CauseHostKey: "host key unknown or changed",
	CauseUnreachable: "remote unreachable", CauseNotFound: "repository or branch not found"}

func (c Cause) String() string {
	if name, ok := causeNames[c]; ok {
		return name
	}
	return fmt.Sprintf("Cause(%d)", int(c))
}

// RemoteError is a git call to the remote that failed for a known cause;
// the full argv and stderr are in Err (an exec error).
type RemoteError struct {
	Cause   Cause
	Said    string // the stderr line that says what happened (sanitized)
	Hint    string // what to do, one line
	Command string // the git command in short: "git fetch origin rx-node"
	Err     error
}

func (e *RemoteError) Error() string {
	msg := e.Cause.String()
	if e.Said != "" {
		msg += ": " + e.Said
	}
	return msg + "\n  what to do: " + e.Hint + "\n  command: " + e.Command
}

func (e *RemoteError) Unwrap() error { return e.Err }

type diagnosis struct {
	Cause Cause
	Said  string
	Hint  string
}

// causeRule recognises one stderr line of git, ssh or curl (LC_ALL=C).
type causeRule struct {
	cause Cause
	re    *regexp.Regexp
	hint  func(m []string, lines []string) string
}

func fixed(s string) func([]string, []string) string {
	return func([]string, []string) string { return s }
}

const (
	hintSSHAuth = "load your key into the ssh agent this command runs with (ssh-add; `ssh-add -l` lists it), " +
		"and check that SSH_AUTH_SOCK names a running agent"
	hintHostUnknown = "connect once with ssh at a terminal to the remote's host to check and accept its key " +
		"(rfhandoff never accepts a host key)"
	hintUnreachable = "check that the host is up and reachable from here (network, VPN, its ssh or web server) " +
		"and the URL's host and port (git remote get-url origin)"
	hintURL    = "check the remote's URL (git remote get-url origin) and that the repository exists there"
	hintBranch = "check the branch name in the policy ([repo]) and that it exists on the remote; rfhandoff never creates it"
)

// sshKeygenRE is the command ssh prints under "remove with:" for a changed key.
var sshKeygenRE = regexp.MustCompile(`^ssh-keygen (-f "[^"]*" )?-R "?[^"\s]+"?$`)

func hostKeyChanged(m []string, lines []string) string {
	cmd := `ssh-keygen -R "` + m[1] + `"`
	for _, l := range lines {
		if sshKeygenRE.MatchString(l) {
			cmd = l
		}
	}
	return "if the server's new key is genuine (ask its administrator), remove the old one with " + cmd +
		" and connect once with ssh to accept the new one"
}

// causeRules are tried in order; the first rule matching any line wins.
// Host key lines come first: a changed key is also "verification failed".
var causeRules = []causeRule{
	{CauseHostKey, regexp.MustCompile(`^Host key for (\S+) has changed`), hostKeyChanged},
	{CauseHostKey, regexp.MustCompile(`REMOTE HOST IDENTIFICATION HAS CHANGED`),
		fixed(`if the server's new key is genuine (ask its administrator), remove the old one with ssh-keygen -R <host> and connect once with ssh to accept the new one`)},
	{CauseHostKey, regexp.MustCompile(`^No \S+ host key is known for (\S+)`), fixed(hintHostUnknown)},
	{CauseHostKey, regexp.MustCompile(`^Host key verification failed\.`), fixed(hintHostUnknown)},

	{CauseAuth, regexp.MustCompile(`Permission denied \([a-z,-]+\)`), fixed(hintSSHAuth)},
	{CauseAuth, regexp.MustCompile(`could not read (?:Username|Password) for '([^']+)'`), func(m, _ []string) string {
		return "store credentials for " + m[1] + " in a credential helper and name it in the policy ([tools] git_credential_helper: " +
			"git's own credential.helper settings are not used); rfhandoff never lets git prompt"
	}},
	{CauseAuth, regexp.MustCompile(`Authentication failed for '([^']+)'`), func(m, _ []string) string {
		return "the credentials stored for " + m[1] + " were refused: update them in your credential helper"
	}},
	{CauseAuth, regexp.MustCompile(`The requested URL returned error: (401|403)\b`), func(m, _ []string) string {
		return "the server refused these credentials (HTTP " + m[1] + "): check the token or account has access to the repository"
	}},

	{CauseNotFound, regexp.MustCompile(`^fatal: couldn't find remote ref (\S+)`), fixed(hintBranch)},
	{CauseNotFound, regexp.MustCompile(`^fatal: Remote branch (\S+) not found in upstream`), fixed(hintBranch)},
	{CauseNotFound, regexp.MustCompile(`^fatal: '[^']*' does not appear to be a git repository`), fixed(hintURL)},
	{CauseNotFound, regexp.MustCompile(`^fatal: repository '[^']*' not found`), fixed(hintURL)},
	{CauseNotFound, regexp.MustCompile(`^ERROR: Repository not found`), fixed(hintURL)},
	{CauseNotFound, regexp.MustCompile(`The requested URL returned error: 404\b`), fixed(hintURL)},
	// A git daemon's answer: the server's word, like the 404, so it only
	// points at the URL.
	{CauseNotFound, regexp.MustCompile(`^fatal: remote error: (?:no such repository|access denied or repository not exported): `), fixed(hintURL)},

	{CauseUnreachable, regexp.MustCompile(`^ssh: connect to host \S+ port \d+: `), fixed(hintUnreachable)},
	{CauseUnreachable, regexp.MustCompile(`^ssh: Could not resolve hostname `), fixed(hintUnreachable)},
	{CauseUnreachable, regexp.MustCompile(`Could not resolve host: `), fixed(hintUnreachable)},
	{CauseUnreachable, regexp.MustCompile(`Failed to connect to \S+ port \d+`), fixed(hintUnreachable)},
	{CauseUnreachable, regexp.MustCompile(`Connection refused|Connection timed out|No route to host|Network is unreachable`), fixed(hintUnreachable)},
	// git's own line for a git:// connect failure, whatever errno follows
	// (git.exe under Wine prints errno=Success).
	{CauseUnreachable, regexp.MustCompile(`^fatal: unable to connect to \S+:`), fixed(hintUnreachable)},
	// A server that stopped mid-answer (git's own line, not the server's).
	{CauseUnreachable, regexp.MustCompile(`^fatal: expected flush after ref listing`), fixed(hintUnreachable)},
	{CauseUnreachable, regexp.MustCompile(`The requested URL returned error: (5\d\d)\b`), func(m, _ []string) string {
		return "the server failed (HTTP " + m[1] + "): retry later, or ask its administrator if it persists"
	}},
}

// classifyStderr reads a failed remote call's stderr for a cause. Lines
// the server sent ("remote: ...") are never evidence: a remote must not
// choose what the operator is told to do.
func classifyStderr(stderr []byte) (d diagnosis, ok bool) {
	var lines []string
	for _, l := range outputLines(stderr) {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "remote:") {
			lines = append(lines, l)
		}
	}
	for _, r := range causeRules {
		for _, l := range lines {
			if m := r.re.FindStringSubmatch(l); m != nil {
				return diagnosis{Cause: r.cause, Said: clean(l), Hint: clean(r.hint(m, lines))}, true
			}
		}
	}
	return diagnosis{}, false
}

// clean makes a line safe to show: no terminal controls, no URL password.
func clean(s string) string { return hiddentext.SanitizeLine(exec.Redact([]string{s}, nil)[0]) }

// remoteError is a *RemoteError when stderr names a cause, else an
// *opError of op; an interrupted call is never classified.
func remoteError(op, command string, stderr []byte, err error) error {
	if _, ok := exitCode(err); ok {
		if d, ok := classifyStderr(stderr); ok {
			return &RemoteError{Cause: d.Cause, Said: d.Said, Hint: d.Hint, Command: command, Err: err}
		}
	}
	return &opError{Op: op, Err: err}
}
