package gitcli

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// FetchUpdate is what one narrow fetch said about the tracking ref. A
// watcher uses it to skip resolving the ref when nothing changed, so an
// idle poll costs one subprocess.
type FetchUpdate struct {
	// Updated is true when git reported moving the tracking ref: a
	// fast-forward ("   <old>..<new>  b -> origin/b") or a ref it created
	// (" * [new branch]  b -> origin/b").
	Updated bool
	// Old and New are the abbreviated IDs git printed ("" for a new ref).
	Old, New string
	// Unrecognized holds stderr lines that are neither the "From <url>"
	// header, a "remote: " message nor a line about the tracking ref (warnings, another output
	// format). The caller cannot rule a change out and should resolve.
	Unrecognized []string
	// FilterIgnored is git's warning that the server does not support
	// --filter and sent every object: the fetch worked, at full cost.
	FilterIgnored bool
	// Tip is the tracking ref's full commit ID when the fetcher resolved
	// it after the fetch (the mirror does, to check it against the tip last
	// accepted), "" otherwise: a caller may use it instead of resolving
	// the ref once more.
	Tip string
}

// MayHaveMoved reports whether the tracking ref may point somewhere new:
// only a fetch that printed nothing (or only what the parser knows means
// "unchanged") lets the caller skip resolving it.
func (u FetchUpdate) MayHaveMoved() bool { return u.Updated || len(u.Unrecognized) > 0 }

// FetchBranchUpdated is FetchBranch that also reports, from git's stderr
// (LC_ALL=C, which the runner sets), whether the tracking ref was updated.
// Errors are FetchBranch's: *ForcePushError for a rewritten branch,
// *notFoundError for a missing one, *opError otherwise.
func (c *Client) FetchBranchUpdated(ctx context.Context, remote, branch string) (FetchUpdate, error) {
	ups, err := c.FetchBranchesUpdated(ctx, remote, []string{branch})
	if err != nil {
		return FetchUpdate{}, err
	}
	return ups[branch], nil
}

// FetchBranchesUpdated is FetchBranchUpdated for several branches in one
// git fetch (one subprocess, one refspec per branch; PROTOCOL#several-nodes): the
// report of each branch is its own, and a line git printed that names
// none of them is unrecognized for every one. A rejected update of any
// branch fails the whole fetch as a *ForcePushError naming that branch
// (git still moved the others; their next fetch reports no change, so
// the caller resolves them again after any error).
func (c *Client) FetchBranchesUpdated(ctx context.Context, remote string, branches []string) (map[string]FetchUpdate, error) {
	if err := validBranches(remote, branches); err != nil {
		return nil, err
	}
	if len(branches) == 0 {
		return nil, fmt.Errorf("git fetch: no branch to fetch")
	}
	res, err := c.run(ctx, fetchArgs(remote, branches, c.filter()), call{deferCheck: c.Promisor != nil && c.Promisor.ChecksObjects && c.filter() != ""})
	if err != nil {
		return nil, fetchError(remote, branches, res.Stderr, err)
	}
	ups := parseFetchUpdates(res.Stderr, remote, branches)
	for _, u := range ups {
		if u.FilterIgnored {
			c.filterIgnored()
			break
		}
	}
	return ups, nil
}

// fetchError maps a failed narrow fetch to its typed error. A missing
// branch is a *RemoteError (CauseNotFound) that wraps a *notFoundError, so
// it matches ErrNotFound too.
func fetchError(remote string, branches []string, stderr []byte, err error) error {
	code, ok := exitCode(err)
	if !ok {
		return &opError{Op: "fetch", Err: err}
	}
	command := "git fetch " + remote + " " + strings.Join(branches, " ")
	out := parseFetchStderr(stderr)
	branch := branches[0]
	if len(branches) > 1 {
		for _, b := range branches {
			if isTrackingRef(out.To, remote, b) && out.To != remote+"/*" {
				branch = b
			}
		}
	}
	switch {
	case code == 1 && out.Rejected:
		return &ForcePushError{Remote: remote, Branch: branch, Reason: out.Reason, Err: err}
	case code == 128 && out.MissingRef:
		what := "remote branch " + remote + "/" + branch
		if len(branches) > 1 {
			what = "one of the remote branches " + remote + "/{" + strings.Join(branches, ",") + "}"
		}
		nf := &notFoundError{What: what, Err: err}
		return &RemoteError{Cause: CauseNotFound, Said: nf.Error(), Hint: hintBranch, Command: command, Err: nf}
	}
	return remoteError("fetch", command, stderr, err)
}

// fetchRefLineRE is one ref line of git fetch's summary (see "OUTPUT" in
// git-fetch(1)): " <flag> <summary> <from> -> <to> [(<reason>)]".
var fetchRefLineRE = regexp.MustCompile(`^ ([ +*=t!-]) (\[[^\]]+\]|[0-9a-f]{4,64}\.\.\.?[0-9a-f]{4,64})\s+(\S+)\s+->\s+(\S+)(?:\s+\(([^()]*)\))?\s*$`)

var fetchRangeRE = regexp.MustCompile(`^([0-9a-f]+)\.\.\.?([0-9a-f]+)$`)

// parseFetchUpdates reads a successful narrow fetch's stderr. git prints
// nothing when a tracking ref was already up to date, and a "From" line
// plus one ref line for each that moved. A ref line counts for the branch
// it names; a line that names none of them (the compact "origin/*" of
// several included) is unrecognized for each.
func parseFetchUpdates(stderr []byte, remote string, branches []string) map[string]FetchUpdate {
	ups := make(map[string]FetchUpdate, len(branches))
	all := func(f func(*FetchUpdate)) {
		for _, b := range branches {
			u := ups[b]
			f(&u)
			ups[b] = u
		}
	}
	all(func(*FetchUpdate) {})
	for _, line := range outputLines(stderr) {
		// The header and the server's own messages (progress, banners)
		// never report a ref update: that is always a ref line.
		if strings.HasPrefix(line, "From ") || strings.HasPrefix(line, "remote: ") {
			continue
		}
		if line == filterIgnoredLine {
			all(func(u *FetchUpdate) { u.FilterIgnored = true })
			continue
		}
		m := fetchRefLineRE.FindStringSubmatch(line)
		branch := ""
		if m != nil {
			for _, b := range branches {
				if isTrackingRef(m[4], remote, b) && (len(branches) == 1 || m[4] != remote+"/*") {
					branch = b
					break
				}
			}
		}
		if branch == "" {
			all(func(u *FetchUpdate) { u.Unrecognized = append(u.Unrecognized, line) })
			continue
		}
		u := ups[branch]
		switch flag := m[1]; flag {
		case "=": // "[up to date]" (only with -v): unchanged
		case " ", "+", "*":
			u.Updated = true
			if r := fetchRangeRE.FindStringSubmatch(m[2]); r != nil {
				u.Old, u.New = r[1], r[2]
			}
		default: // '!' rejected, '-' pruned, 't' tag: not expected here
			u.Unrecognized = append(u.Unrecognized, line)
		}
		ups[branch] = u
	}
	return ups
}

// isTrackingRef reports whether a ref line's destination is our tracking
// ref as git shortens it ("origin/b"), in full, or in the compact form of
// fetch.output=compact ("origin/*").
func isTrackingRef(to, remote, branch string) bool {
	switch to {
	case remote + "/" + branch, "refs/remotes/" + remote + "/" + branch, remote + "/*":
		return true
	}
	return false
}
