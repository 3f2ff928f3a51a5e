package gitcli

import (
	"context"
	"fmt"
	"strings"
)

// Git calls only the tests make: the product builds result commits from
// objects, so it never stages, checks out or asks for one entry's mode.

func (c *Client) StagedPaths(ctx context.Context) ([]string, error) {
	return output(ctx, c, "diff --cached", []string{"diff", "--cached", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"}, call{}, parseNameOnlyZ)
}

func (c *Client) StagedChanges(ctx context.Context) ([]StagedChange, error) {
	return output(ctx, c, "diff --cached --raw", []string{"diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv"}, call{}, parseRawZ)
}

func (c *Client) HasStagedChanges(ctx context.Context) (bool, error) {
	return c.exitBool(ctx, "diff --cached --quiet",
		[]string{"diff", "--cached", "--quiet", "--no-renames", "--no-ext-diff", "--no-textconv"}, 1, 0)
}

func parseNameOnlyZ(out []byte) ([]string, error) {
	if len(out) > 0 && out[len(out)-1] != 0 {
		return nil, fmt.Errorf("name list is not NUL-terminated")
	}
	recs := splitNUL(out)
	for i, p := range recs {
		if p == "" {
			return nil, fmt.Errorf("name list record %d is empty", i+1)
		}
	}
	return recs, nil
}

// CurrentBranch is the checked-out branch, "" when HEAD is detached.
func (c *Client) CurrentBranch(ctx context.Context) (string, error) {
	res, err := c.run(ctx, []string{"symbolic-ref", "--quiet", "--short", "HEAD"}, call{})
	if err != nil {
		if code, ok := exitCode(err); ok && code == 1 {
			return "", nil
		}
		return "", &opError{Op: "symbolic-ref", Err: err}
	}
	return strings.TrimSuffix(string(res.Stdout), "\n"), nil
}

// CheckoutNeutral fills a TempClone's empty work tree with
// neutralAttributes already in place: not even this checkout runs a filter.
func (c *Client) CheckoutNeutral(ctx context.Context) error {
	return c.do(ctx, "read-tree", []string{"read-tree", "--reset", "-u", "HEAD"}, call{})
}

func (c *Client) EntryMode(ctx context.Context, commit, path string) (Mode, error) {
	e, err := c.entry(ctx, commit, path)
	return e.Mode, err
}

func (c *Client) BlobSize(ctx context.Context, commit, path string) (int64, error) {
	e, err := c.entry(ctx, commit, path)
	if err != nil {
		return 0, err
	}
	if e.Type != "blob" {
		return 0, &notRegularFileError{Path: path, Mode: e.Mode}
	}
	return e.Size, nil
}

// FetchBranch updates refs/remotes/<remote>/<branch> with one narrow
// fetch. The refspec has no '+', so a rewritten branch is refused as a
// *ForcePushError, never followed; a missing one matches ErrNotFound.
func (c *Client) FetchBranch(ctx context.Context, remote, branch string) error {
	_, err := c.FetchBranchUpdated(ctx, remote, branch)
	return err
}
