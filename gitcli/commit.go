package gitcli

import (
	"context"
	"strings"
	"unicode/utf8"

	"rfhandoff/exec"
)

// Identity is a commit author and committer.
type Identity struct {
	Name  string
	Email string
}

// DefaultIdentity signs commits when neither Client.Identity nor git's
// user.name/user.email is set.
var DefaultIdentity = Identity{Name: "rfhandoff", Email: "rfhandoff@localhost"}

func (id Identity) validate() error {
	for _, v := range []struct{ arg, val string }{{"identity name", id.Name}, {"identity email", id.Email}} {
		if v.val == "" || !printableLine(v.val) || strings.ContainsAny(v.val, "<>") || strings.TrimSpace(v.val) != v.val {
			return invalid(v.arg, v.val, "must be one line of printable characters without '<' or '>'")
		}
	}
	return nil
}

func (id Identity) env() []string {
	return []string{
		"GIT_AUTHOR_NAME=" + id.Name, "GIT_AUTHOR_EMAIL=" + id.Email,
		"GIT_COMMITTER_NAME=" + id.Name, "GIT_COMMITTER_EMAIL=" + id.Email,
	}
}

// Trailer is a "Key: value" line at the end of a commit message, such as
// Audit-Chain-Head.
type Trailer struct {
	Key, Value string
}

// Commit commits the index with message and trailers appended as the
// message's last paragraph, and returns the new commit's ID. The message
// goes through stdin, never argv. Hooks are skipped; the commit is signed
// with Client.SigningKey when one is set, and never otherwise.
// An empty index is git's "nothing to commit" error: check
// HasStagedChanges first.
func (c *Client) Commit(ctx context.Context, message string, trailers []Trailer) (string, error) {
	msg, err := commitMessage(message, trailers)
	if err != nil {
		return "", err
	}
	id, err := c.commitIdentity(ctx)
	if err != nil {
		return "", err
	}
	if c.SigningKey != "" {
		_, err = c.run(ctx, signedCommitArgs(), call{stdin: strings.NewReader(msg), env: id.env(),
			sig: &exec.Signatures{SigningKey: c.SigningKey}})
		if err != nil {
			return "", &Error{Op: "commit (signing with " + c.SigningKey + ")", Err: err}
		}
		return c.Head(ctx)
	}
	_, err = c.run(ctx, commitArgs(), call{stdin: strings.NewReader(msg), env: id.env()})
	if err != nil {
		return "", &Error{Op: "commit", Err: err}
	}
	return c.Head(ctx)
}

func commitArgs() []string {
	return []string{"commit", "--quiet", "--no-verify", "--no-gpg-sign", "--cleanup=whitespace", "--file=-"}
}

func signedCommitArgs() []string {
	return []string{"commit", "--quiet", "--no-verify", "--gpg-sign", "--cleanup=whitespace", "--file=-"}
}

// commitMessage validates message and trailers and joins them.
func commitMessage(message string, trailers []Trailer) (string, error) {
	if !utf8.ValidString(message) {
		return "", invalid("commit message", message, "not valid UTF-8")
	}
	for _, r := range message {
		if (r < ' ' && r != '\n' && r != '\t') || r == 0x7f {
			return "", invalid("commit message", message, "contains control characters")
		}
	}
	msg := strings.TrimRight(message, " \t\n")
	if strings.TrimSpace(msg) == "" {
		return "", invalid("commit message", message, "empty")
	}
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString("\n")
	for i, t := range trailers {
		if err := validTrailer(t); err != nil {
			return "", err
		}
		if i == 0 {
			b.WriteString("\n")
		}
		b.WriteString(t.Key + ": " + t.Value + "\n")
	}
	return b.String(), nil
}

// commitIdentity picks Client.Identity, else git's configured identity,
// else DefaultIdentity. It is always set explicitly, so git never falls
// back to guessing from the host name.
func (c *Client) commitIdentity(ctx context.Context) (Identity, error) {
	if c.Identity != (Identity{}) {
		return c.Identity, c.Identity.validate()
	}
	name, nameOK, err := c.configGet(ctx, "user.name")
	if err != nil {
		return Identity{}, err
	}
	email, emailOK, err := c.configGet(ctx, "user.email")
	if err != nil {
		return Identity{}, err
	}
	if nameOK && emailOK {
		id := Identity{Name: name, Email: email}
		if id.validate() == nil {
			return id, nil
		}
	}
	return DefaultIdentity, nil
}

// configGet reads one config value; ok is false when it is not set
// (git config exits 1).
func (c *Client) configGet(ctx context.Context, key string) (string, bool, error) {
	res, err := c.run(ctx, []string{"config", "--get", "--end-of-options", key}, call{})
	if err != nil {
		if code, isExit := exitCode(err); isExit && code == 1 {
			return "", false, nil
		}
		return "", false, &Error{Op: "config --get " + key, Err: err}
	}
	return strings.TrimSuffix(string(res.Stdout), "\n"), true, nil
}
