package gitcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"rfhandoff/exec"
	"rfhandoff/hiddentext"
)

// NotIgnoredError is a directory that must stay out of commits but that
// git could commit (Rel "": the checkout itself).
type NotIgnoredError struct {
	What    string // "state directory", "capture directory"
	Dir     string
	Repo    string // the checkout
	Rel     string // Dir relative to Repo, as asked of git check-ignore
	Exclude string // the checkout's exclude file (GitPath), "" when unknown
}

func (e *NotIgnoredError) Error() string {
	if e.Rel == "" {
		return fmt.Sprintf("%s %s is the checkout itself: refusing to run (git could commit what is written there); "+
			"choose a directory inside the checkout that git ignores, or one outside it", e.What, e.Dir)
	}
	where := filepath.Join(e.Repo, ".gitignore")
	if e.Exclude != "" {
		where = e.Exclude + " (this checkout only) or to " + where
	}
	return fmt.Sprintf("%s %s is not ignored by git in %s (asked with git check-ignore; nothing was written): refusing to run "+
		"(what is written there must never enter git); add the line /%s/ to %s, then try again",
		e.What, e.Dir, e.Repo, filepath.ToSlash(e.Rel), where)
}

// RequireIgnored refuses, as a *NotIgnoredError naming what, a directory
// that git in the checkout repo could commit. dir need not exist: git is
// asked about "rel/", which a "/dir/" pattern matches either way.
func (c *Client) RequireIgnored(ctx context.Context, repo, dir, what string) error {
	rel, inside, itself, err := pathInCheckout(repo, dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: %w", what, dir, err)
	case itself:
		return &NotIgnoredError{What: what, Dir: dir, Repo: repo}
	case !inside:
		return nil // outside the checkout: git never sees it
	case c.Ignored.has(repo, dir):
		return nil
	}
	ignored, err := c.CheckIgnored(ctx, filepath.ToSlash(rel)+"/")
	if err != nil {
		return fmt.Errorf("checking that %s is ignored by git: %w", dir, err)
	}
	if !ignored {
		// The advice names the file git reads: asked only now, to refuse.
		exclude, _ := c.GitPath(ctx, "info/exclude")
		return &NotIgnoredError{What: what, Dir: dir, Repo: repo, Rel: rel, Exclude: exclude}
	}
	c.Ignored.add(repo, dir)
	return nil
}

// MakePrivateDir is RequireIgnored, then creates dir (0700): a refused
// directory is never created.
func (c *Client) MakePrivateDir(ctx context.Context, repo, dir, what string) error {
	if err := c.RequireIgnored(ctx, repo, dir, what); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// GitPath is the absolute path git uses for path in the git directory
// (info/exclude of a linked worktree is the main repository's).
func (c *Client) GitPath(ctx context.Context, path string) (string, error) {
	return output(ctx, c, "rev-parse", []string{"rev-parse", "--git-path", path}, call{}, func(out []byte) (string, error) {
		p := filepath.FromSlash(strings.TrimRight(string(out), "\r\n"))
		if p == "" {
			return "", fmt.Errorf("no path for %s", path)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Dir, p)
		}
		return p, nil
	})
}

type notACheckoutError struct {
	Dir string
	Top string // git's top, "" when git names none
	Git string // git's first line of complaint, sanitized
}

func (e *notACheckoutError) Error() string {
	if e.Top != "" {
		return fmt.Sprintf("%s is not the top of its git checkout: git says the top is %s (asked with git rev-parse --show-toplevel; nothing was written); "+
			"run rfhandoff inside the checkout, or set [repo] path in the policy to %s", e.Dir, e.Top, e.Top)
	}
	return fmt.Sprintf("git takes %s for no checkout's work tree (asked with git rev-parse --show-toplevel: %s; nothing was written); "+
		"run rfhandoff inside the checkout it works in, or set [repo] path in the policy to it", e.Dir, e.Git)
}

// RequireTop refuses Dir unless git takes it for the top of a work tree.
func (c *Client) RequireTop(ctx context.Context) error {
	res, err := c.run(ctx, []string{"rev-parse", "--show-toplevel"}, call{})
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		complaint, _, _ := strings.Cut(strings.TrimSpace(ee.StderrTail), "\n")
		return &notACheckoutError{Dir: c.Dir, Git: hiddentext.SanitizeLine(strings.TrimSpace(complaint))}
	}
	if err != nil {
		return &opError{Op: "rev-parse", Err: err}
	}
	top := filepath.FromSlash(strings.TrimRight(string(res.Stdout), "\r\n"))
	a, aerr := os.Stat(top)
	b, berr := os.Stat(c.Dir)
	if aerr != nil || berr != nil || !os.SameFile(a, b) {
		return &notACheckoutError{Dir: c.Dir, Top: hiddentext.SanitizeLine(top)}
	}
	return nil
}

// trackedError is files git tracks where rfhandoff keeps what it trusts:
// git writes a tracked file on checkout and merge, ignored or not, so a
// commit the checkout pulls could have put its own state or signers there.
type trackedError struct {
	Repo  string   // the checkout
	Files []string // relative to Repo, as git lists them
}

func (e *trackedError) Error() string {
	// The names come from a commit: shown as the sanitizer renders them.
	var files []string
	for _, f := range e.Files[:min(len(e.Files), 5)] {
		files = append(files, hiddentext.SanitizeLine(f))
	}
	more := ""
	if len(e.Files) > 5 {
		more = fmt.Sprintf(" and %d more", len(e.Files)-5)
	}
	return fmt.Sprintf("git tracks %s%s in %s, where rfhandoff keeps what it trusts: a commit brought them in, and git replaces such a file "+
		"on checkout and merge (an ignored one too), so what they hold cannot be trusted; refusing to run. "+
		"Find the commit with `git log --stat -- %s`, untrack each file (`git rm --cached -- %s`) and have the commit reverted on its branch, "+
		"and look at what they hold before running again; keeping the state directory outside the checkout puts it out of git's reach",
		strings.Join(files, ", "), more, e.Repo, files[0], files[0])
}

// RequireUntracked refuses the files git tracks in the checkout repo at or
// below any of paths (inside it, and not the checkout itself).
func (c *Client) RequireUntracked(ctx context.Context, repo string, paths ...string) error {
	args := []string{"ls-files", "-z", "--cached", "--"}
	for _, p := range paths {
		rel, inside, _, err := pathInCheckout(repo, p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if inside {
			// Literal: a path from the policy is a name, never a glob.
			args = append(args, ":(literal)"+filepath.ToSlash(rel))
		}
	}
	if len(args) == 4 {
		return nil
	}
	res, err := c.run(ctx, args, call{})
	if err != nil {
		return &opError{Op: "ls-files", Err: err}
	}
	if files := splitNUL(res.Stdout); len(files) > 0 {
		return &trackedError{Repo: repo, Files: files}
	}
	return nil
}

func pathInCheckout(repo, dir string) (rel string, inside, itself bool, err error) {
	ra, err := filepath.Abs(repo)
	if err != nil {
		return "", false, false, err
	}
	da, err := filepath.Abs(dir)
	if err != nil {
		return "", false, false, err
	}
	rel, err = filepath.Rel(ra, da)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false, false, nil
	}
	if rel == "." {
		return "", false, true, nil
	}
	return rel, true, false, nil
}
