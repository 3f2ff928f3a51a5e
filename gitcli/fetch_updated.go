package gitcli

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// FetchUpdate is what one narrow fetch said about the tracking ref, so
// that an idle poll need not resolve it.
type FetchUpdate struct {
	Updated  bool   // git moved (fast-forwarded or created) the tracking ref
	Old, New string // the abbreviated IDs git printed ("" for a new ref)
	// Unrecognized holds stderr lines other than "From <url>", "remote: "
	// and the tracking ref's: a change cannot be ruled out.
	Unrecognized  []string
	FilterIgnored bool // the server ignored --filter and sent every object
	// Tip is the tracking ref's commit when the fetcher resolved it after
	// the fetch (the mirror does): a caller need not resolve it again.
	Tip string
}

func (u FetchUpdate) MayHaveMoved() bool { return u.Updated || len(u.Unrecognized) > 0 }

// FetchBranchUpdated is FetchBranch that also reports, from git's stderr
// (LC_ALL=C), whether the tracking ref was updated.
func (c *Client) FetchBranchUpdated(ctx context.Context, remote, branch string) (FetchUpdate, error) {
	ups, err := c.FetchBranchesUpdated(ctx, remote, []string{branch})
	if err != nil {
		return FetchUpdate{}, err
	}
	return ups[branch], nil
}

// FetchBranchesUpdated is FetchBranchUpdated for several branches in one
// git fetch (PROTOCOL#several-nodes). A rejected update of any branch
// fails the whole fetch as a *ForcePushError (git still moved the others,
// so the caller resolves them again after any error).
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
	if ups[branches[0]].FilterIgnored { // set for every branch or none
		c.filterIgnored()
	}
	return ups, nil
}

// fetchError types a failed narrow fetch; a missing branch is a
// *RemoteError wrapping a *notFoundError.
func fetchError(remote string, branches []string, stderr []byte, err error) error {
	code, ok := exitCode(err)
	if !ok {
		return &opError{Op: "fetch", Err: err}
	}
	command := "git fetch " + remote + " " + strings.Join(branches, " ")
	out := parseFetchStderr(stderr)
	branch := branches[0]
	for _, b := range branches {
		if isTrackingRef(out.To, remote, b) && out.To != remote+"/*" {
			branch = b
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

// parseFetchUpdates reads a successful narrow fetch's stderr: a ref line
// for each branch that moved. A line that names none of branches (or the
// compact "origin/*" of several) is unrecognized for each.
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

// isTrackingRef: "origin/b", in full, or fetch.output=compact's "origin/*".
func isTrackingRef(to, remote, branch string) bool {
	switch to {
	case remote + "/" + branch, "refs/remotes/" + remote + "/" + branch, remote + "/*":
		return true
	}
	return false
}
