package gitcli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"rfhandoff/exec"
	"rfhandoff/gitcli/gitname"
	"rfhandoff/localfile"
)

// CloneBranch makes a shallow, single-branch, tag-less clone of url's
// branch into dir, its work tree empty (see CheckoutNeutral).
func (c *Client) CloneBranch(ctx context.Context, url, branch, dir string) error {
	if err := firstErr(ValidURL(url), ValidBranch(branch)); err != nil {
		return err
	}
	if !filepath.IsAbs(dir) || filepath.Clean(dir) != dir || !gitname.PrintableLine(dir) {
		return invalid("clone directory", dir, "must be a clean absolute path")
	}
	args := []string{"clone", "--quiet", "--no-checkout", "--depth", "1", "--single-branch", "--no-tags",
		"--no-recurse-submodules", "--branch", branch, "--origin", "origin", "--end-of-options", url, dir}
	res, err := c.run(ctx, args, call{dir: filepath.Dir(dir), remote: url})
	if err != nil {
		return remoteError("clone", "git clone --branch "+branch+" "+exec.RedactURL(url), res.Stderr, err)
	}
	return nil
}

// TempClone is CloneBranch into a fresh private temporary directory, with
// neutralAttributes in place, once git is known to push to exactly url
// from it. Call cleanup even when err is non-nil (more than once is safe).
func (c *Client) TempClone(ctx context.Context, url, branch string) (clone *Client, cleanup func(), err error) {
	cleanup = func() {}
	if err := firstErr(ValidURL(url), ValidBranch(branch)); err != nil {
		return nil, cleanup, err
	}
	// The pid lets RemoveStaleClones tell a live publisher's clone from a dead one's.
	tmp, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", clonePrefix, os.Getpid()))
	if err != nil {
		return nil, cleanup, fmt.Errorf("temporary clone directory: %w", err)
	}
	cleanup = func() { _ = os.RemoveAll(tmp) }
	// The clone may hold credentials: 0700 whatever the platform did.
	if err := os.Chmod(tmp, 0o700); err != nil {
		return nil, cleanup, fmt.Errorf("temporary clone directory: %w", err)
	}
	dir := filepath.Join(tmp, "repo")
	if err := c.CloneBranch(ctx, url, branch, dir); err != nil {
		return nil, cleanup, err
	}
	clone = &Client{R: c.R, Dir: dir, Timeout: c.Timeout, Identity: c.Identity, SigningKey: c.SigningKey, URL: url}
	if err := clone.neutralAttributes(); err != nil {
		return nil, cleanup, err
	}
	// The global config still applies: its push must go where it came from.
	got, err := clone.RemoteURL(ctx, "origin")
	if err != nil {
		return nil, cleanup, fmt.Errorf("temporary clone of %s: %w", exec.RedactURL(url), err)
	}
	if got != url {
		return nil, cleanup, fmt.Errorf("temporary clone of %s: its origin is %s", exec.RedactURL(url), exec.RedactURL(got))
	}
	return clone, cleanup, nil
}

// neutralAttributes overrides the branch's .gitattributes in the clone: no
// conversion and no smudge or clean filter (git-lfs, any program the
// operator's config names), so the bytes are exactly the blobs'.
const neutralAttributes = "* -text -eol -filter -ident -working-tree-encoding\n"

func (c *Client) neutralAttributes() error {
	info := filepath.Join(c.Dir, ".git", "info")
	err := os.MkdirAll(info, 0o755)
	if err == nil {
		err = os.WriteFile(filepath.Join(info, "attributes"), []byte(neutralAttributes), 0o644)
	}
	if err != nil {
		return fmt.Errorf("clone attributes: %w", err)
	}
	return nil
}

const clonePrefix = "rfhandoff-clone-"

// RemoveStaleClones removes, and returns, the temporary clones in dir (the
// system temp dir when "") whose creating process is gone: a killed
// publisher's clone config may hold a remote's password.
func RemoveStaleClones(dir string) ([]string, error) {
	dir = cmp.Or(dir, os.TempDir())
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		pid, ok := clonePID(e.Name())
		if !ok || !e.IsDir() || localfile.PIDAlive(pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if st, err := os.Lstat(path); err != nil || !ownedByUs(st) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			return removed, err
		}
		removed = append(removed, path)
	}
	return removed, nil
}

// clonePID reads the pid from "rfhandoff-clone-<pid>-<random>".
func clonePID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, clonePrefix)
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(num)
	return pid, err == nil && pid > 0
}
