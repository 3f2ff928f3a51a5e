package gitcli

import (
	"context"
	"strings"
)

// ResolveCommit resolves ref to the ID of the commit it names, else a
// *notFoundError.
func (c *Client) ResolveCommit(ctx context.Context, ref string) (string, error) {
	if err := validRef(ref); err != nil {
		return "", err
	}
	res, err := c.run(ctx, []string{"rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"}, call{})
	if err != nil {
		if code, ok := exitCode(err); ok && code == 1 {
			return "", &notFoundError{What: "commit " + ref, Err: err}
		}
		return "", &opError{Op: "rev-parse", Err: err}
	}
	return parseObjectID("rev-parse", res.Stdout)
}

func parseObjectID(op string, out []byte) (string, error) {
	id := strings.TrimSuffix(string(out), "\n")
	if err := ValidObjectID(id); err != nil {
		return "", &opError{Op: op, Err: err}
	}
	return id, nil
}

func (c *Client) Head(ctx context.Context) (string, error) {
	return c.ResolveCommit(ctx, "HEAD")
}

func (c *Client) HeadLater(ctx context.Context) (wait func() (string, error)) {
	return later(func() (string, error) { return c.Head(ctx) })
}

// IsAncestor reports whether commit a is an ancestor of (or equal to)
// commit b; a missing object is an error, never a guess.
func (c *Client) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	if err := firstErr(validRef(a), validRef(b)); err != nil {
		return false, err
	}
	return c.exitBool(ctx, "merge-base --is-ancestor",
		[]string{"merge-base", "--is-ancestor", "--end-of-options", a, b}, 0, 1)
}
