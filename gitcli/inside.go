package gitcli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"rfhandoff/hiddentext"
)

// NotIgnoredError is a directory that must stay out of commits (state,
// captures, logs) but that git could commit: it lies inside the checkout
// and git does not ignore it, or it is the checkout itself (Rel "").
type NotIgnoredError struct {
	What string // "state directory", "capture directory"
	Dir  string
	Repo string // the checkout
	Rel  string // Dir relative to Repo, as asked of git check-ignore
}

func (e *NotIgnoredError) Error() string {
	if e.Rel == "" {
		return fmt.Sprintf("%s %s is the checkout itself: refusing to run (git could commit what is written there); "+
			"choose a directory inside the checkout that git ignores, or one outside it", e.What, e.Dir)
	}
	return fmt.Sprintf("%s %s is not ignored by git in %s: refusing to run "+
		"(what is written there must never enter git); add the line /%s/ to %s or to .gitignore, then try again",
		e.What, e.Dir, e.Repo, filepath.ToSlash(e.Rel), filepath.Join(e.Repo, ".git", "info", "exclude"))
}

// RequireIgnored refuses, as a *NotIgnoredError naming what (e.g. "state
// directory"), a directory that git in the checkout repo could commit. A
// directory outside the checkout passes without asking git. dir need not
// exist: git is asked about it as a directory ("rel/"), which a "/dir/"
// pattern matches either way.
func (c *Client) RequireIgnored(ctx context.Context, repo, dir, what string) error {
	rel, inside, itself, err := pathInCheckout(repo, dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: %w", what, dir, err)
	case itself:
		return &NotIgnoredError{What: what, Dir: dir, Repo: repo}
	case !inside:
		return nil // outside the checkout: git never sees it
	}
	ignored, err := c.CheckIgnored(ctx, filepath.ToSlash(rel)+"/")
	if err != nil {
		return fmt.Errorf("checking that %s is ignored by git: %w", dir, err)
	}
	if !ignored {
		return &NotIgnoredError{What: what, Dir: dir, Repo: repo, Rel: rel}
	}
	return nil
}

// MakePrivateDir creates dir (0700, with its parents) and then refuses it
// as RequireIgnored does. A refused directory stays created (empty).
func (c *Client) MakePrivateDir(ctx context.Context, repo, dir, what string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return c.RequireIgnored(ctx, repo, dir, what)
}

// trackedError is files git tracks where rfhandoff keeps what it trusts
// (the state directory, the audit log, the policy's trust files): git
// writes a tracked file on checkout and merge, and replaces even an
// ignored one when a commit brings it in, so a commit on a branch the
// checkout pulls could have put its own state, records or allowed signers
// there.
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

// RequireUntracked refuses, naming them, the files git tracks in the
// checkout repo at or below any of paths. A path outside the checkout is
// not asked about (git never writes there), nor the checkout itself
// (RequireIgnored refuses a state directory there); with no path left, git
// does not run.
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
		return &Error{Op: "ls-files", Err: err}
	}
	if files := splitNUL(res.Stdout); len(files) > 0 {
		return &trackedError{Repo: repo, Files: files}
	}
	return nil
}

// pathInCheckout returns dir relative to the checkout repo, whether it
// lies inside it (a directory outside is never seen by git) and whether it
// is the checkout itself. It only compares paths; nothing is asked of git.
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
