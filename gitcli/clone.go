package gitcli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// CloneBranch makes a shallow (depth 1), single-branch, tag-less clone of
// url's branch into dir, which must be an absolute path that does not exist
// or is empty. It is the publisher's scratch copy: cheap, and never the
// operator's checkout. The clone's remote is named "origin".
func (c *Client) CloneBranch(ctx context.Context, url, branch, dir string) error {
	if err := ValidURL(url); err != nil {
		return err
	}
	if err := ValidBranch(branch); err != nil {
		return err
	}
	if !filepath.IsAbs(dir) || filepath.Clean(dir) != dir || !printableLine(dir) {
		return invalid("clone directory", dir, "must be a clean absolute path")
	}
	_, err := c.run(ctx, cloneArgs(url, branch, dir), call{dir: filepath.Dir(dir)})
	if err != nil {
		return &Error{Op: "clone", Err: err}
	}
	return nil
}

func cloneArgs(url, branch, dir string) []string {
	return []string{
		"clone", "--quiet", "--depth", "1", "--single-branch", "--no-tags",
		"--no-recurse-submodules", "--branch", branch, "--origin", "origin",
		"--end-of-options", url, dir,
	}
}

// TempClone clones url's branch (see CloneBranch) into a fresh private
// (0700) temporary directory and returns a Client for it. cleanup removes
// the directory; it is safe to call more than once and must be called even
// when err is non-nil.
func (c *Client) TempClone(ctx context.Context, url, branch string) (clone *Client, cleanup func(), err error) {
	cleanup = func() {}
	if err := ValidURL(url); err != nil {
		return nil, cleanup, err
	}
	if err := ValidBranch(branch); err != nil {
		return nil, cleanup, err
	}
	tmp, err := os.MkdirTemp("", "rfhandoff-clone-")
	if err != nil {
		return nil, cleanup, fmt.Errorf("temporary clone directory: %w", err)
	}
	cleanup = func() { _ = os.RemoveAll(tmp) }
	// MkdirTemp already uses 0700; make sure a permissive umask or an odd
	// platform did not change that, since the clone may hold credentials.
	if err := os.Chmod(tmp, 0o700); err != nil {
		return nil, cleanup, fmt.Errorf("temporary clone directory: %w", err)
	}
	dir := filepath.Join(tmp, "repo")
	if err := c.CloneBranch(ctx, url, branch, dir); err != nil {
		return nil, cleanup, err
	}
	clone = &Client{R: c.R, Dir: dir, Timeout: c.Timeout, Identity: c.Identity}
	return clone, cleanup, nil
}
