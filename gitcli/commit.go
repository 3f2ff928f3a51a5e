package gitcli

import (
	"context"
	"strings"
	"unicode/utf8"

	"rfhandoff/exec"
	"rfhandoff/gitcli/gitname"
)

type Identity struct {
	Name  string
	Email string
}

var defaultIdentity = Identity{Name: "rfhandoff", Email: "rfhandoff@localhost"}

func (id Identity) validate() error {
	for _, v := range []struct{ arg, val string }{{"identity name", id.Name}, {"identity email", id.Email}} {
		if v.val == "" || !gitname.PrintableLine(v.val) || strings.ContainsAny(v.val, "<>") || strings.TrimSpace(v.val) != v.val {
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

type Trailer struct {
	Key, Value string
}

// Commit commits the index with message and trailers through stdin, never
// argv, and returns the new commit's ID. Hooks are skipped; it is signed
// with Client.SigningKey when set, never otherwise.
func (c *Client) Commit(ctx context.Context, message string, trailers []Trailer) (string, error) {
	sign, in, err := c.commitCall(ctx, message, trailers)
	if err != nil {
		return "", err
	}
	args := append(append([]string{"commit", "--quiet", "--no-verify"}, sign...), "--cleanup=whitespace", "--file=-")
	if err := c.do(ctx, c.signingOp("commit"), args, in); err != nil {
		return "", err
	}
	return c.Head(ctx)
}

func (c *Client) commitCall(ctx context.Context, message string, trailers []Trailer) ([]string, call, error) {
	msg, err := commitMessage(message, trailers)
	if err != nil {
		return nil, call{}, err
	}
	id, err := c.commitIdentity(ctx)
	if err != nil {
		return nil, call{}, err
	}
	sign, sig := c.signing()
	return sign, call{stdin: strings.NewReader(msg), env: id.env(), sig: sig}, nil
}

// CommitTree is Commit of tree with parent as its only parent, without an
// index or a work tree. No ref moves: the caller pushes the ID.
func (c *Client) CommitTree(ctx context.Context, tree, parent, message string, trailers []Trailer) (string, error) {
	if err := firstErr(ValidObjectID(tree), validRef(parent)); err != nil {
		return "", err
	}
	sign, in, err := c.commitCall(ctx, message, trailers)
	if err != nil {
		return "", err
	}
	res, err := c.run(ctx, append(append([]string{"commit-tree", "-p", parent, "-F", "-"}, sign...), "--end-of-options", tree), in)
	if err != nil {
		return "", &opError{Op: c.signingOp("commit-tree"), Err: err}
	}
	return parseObjectID("commit-tree", res.Stdout)
}

// signing decides how commits are signed: with Client.SigningKey through
// the runner's pinned ssh-keygen, or explicitly not at all (whatever
// commit.gpgSign says).
func (c *Client) signing() ([]string, *exec.Signatures) {
	if c.SigningKey == "" {
		return []string{"--no-gpg-sign"}, nil
	}
	return []string{"--gpg-sign"}, &exec.Signatures{SigningKey: c.SigningKey}
}

func (c *Client) signingOp(op string) string {
	if c.SigningKey == "" {
		return op
	}
	return op + " (signing with " + c.SigningKey + ")"
}

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

// IdentityLater starts commitIdentity beside what the caller does; set as
// Client.Identity, it spares Commit its own read.
func (c *Client) IdentityLater(ctx context.Context) (wait func() (Identity, error)) {
	return later(func() (Identity, error) { return c.commitIdentity(ctx) })
}

// commitIdentity picks Client.Identity, else git's configured identity,
// else defaultIdentity: always explicit, so git never guesses from the
// host name.
func (c *Client) commitIdentity(ctx context.Context) (Identity, error) {
	if c.Identity != (Identity{}) {
		return c.Identity, c.Identity.validate()
	}
	// Both keys in one call; git config exits 1 when neither is set.
	res, err := c.run(ctx, []string{"config", "--null", "--get-regexp", "--end-of-options", `^user\.(name|email)$`}, call{})
	if err != nil {
		if code, isExit := exitCode(err); isExit && code == 1 {
			return defaultIdentity, nil
		}
		return Identity{}, &opError{Op: "config --get-regexp user", Err: err}
	}
	id := parseUserConfig(res.Stdout)
	if id.Name != "" && id.Email != "" && id.validate() == nil {
		return id, nil
	}
	return defaultIdentity, nil
}

// parseUserConfig reads "key\nvalue\0" records; the last value wins, as in git.
func parseUserConfig(out []byte) Identity {
	var id Identity
	for _, rec := range splitNUL(out) {
		key, val, _ := strings.Cut(rec, "\n")
		switch key {
		case "user.name":
			id.Name = val
		case "user.email":
			id.Email = val
		}
	}
	return id
}
