package gitcli

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Promisor describes a partial clone. git would fetch a missing blob at
// any size and outside the runner; a Client with a Promisor fetches the
// blobs it reads itself, bounded by the caller's size limit.
type Promisor struct {
	Remote        string // the promisor remote's name
	Filter        string // e.g. "blob:none"
	FilterIgnored func() // called each time the server ignored the filter
	// Branch is the remote branch last fetched: a server that refuses a
	// tree asked for by ID (protocol v0 without allowAnySHA1InWant, as over
	// ssh to an sshd that drops GIT_PROTOCOL) is asked for it instead.
	Branch string
	// Withheld remembers blobs a bounded fetch did not bring, so that
	// FileHistory does not ask for them on every run (nil: nothing).
	Withheld WithheldMemo
	// ChecksObjects: the owner checks each fetched pack with FsckPacks, so
	// fetch skips git's own check (which for a blobless fetch ignores the
	// message levels).
	ChecksObjects bool
}

// WithheldMemo records blobs a server withheld as larger than a limit.
type WithheldMemo interface {
	Withheld(blob string, limit int64) bool // withheld at a limit >= limit
	RecordWithheld(blobs []string, limit int64) error
}

const filterIgnoredLine = "warning: filtering not recognized by server, ignoring"

func (c *Client) filter() string {
	if c.Promisor == nil {
		return ""
	}
	return c.Promisor.Filter
}

func (c *Client) filterIgnored() {
	if c.Promisor != nil && c.Promisor.FilterIgnored != nil {
		c.Promisor.FilterIgnored()
	}
}

// fetchBlob makes the file at path in commit present in a partial clone.
// It fetches the directory's tree under blob:limit=maxBytes+1, so the
// server sends the blob only within the limit (asked for by ID it would
// bypass the filter); still missing, it is a *tooLargeError.
func (c *Client) fetchBlob(ctx context.Context, commit, file string, maxBytes int64) error {
	if err := firstErr(ValidObjectID(commit), ValidRepoPath(file)); err != nil {
		return err
	}
	dir := path.Dir(file)
	dirRev := commit + ":" + dir
	if dir == "." {
		dirRev = commit + "^{tree}"
	}
	// A directory that is not there (or not a tree) fails this listing;
	// the entry's lookup below then says what is wrong.
	listing, listErr := c.objectsUnder(ctx, dirRev)
	listed := listErr == nil
	if listed && !strings.Contains("\n"+string(listing), "\n?") {
		return nil
	}
	// Without -l, ls-tree needs trees only: it never fetches a blob.
	entries, err := output(ctx, c, "ls-tree", []string{"ls-tree", "-r", "-t", "-z", "--full-tree", "--end-of-options", commit, "--", file}, call{},
		func(out []byte) ([]TreeEntry, error) { return parseLsTreeRecords(out, 3) })
	if err != nil {
		return err
	}
	var blob, tree string
	for _, e := range entries {
		switch e.Path {
		case file:
			if e.Type != "blob" || !e.Mode.IsRegular() {
				return &notRegularFileError{Path: file, Mode: e.Mode}
			}
			blob = e.ID
		case dir:
			tree = e.ID
		}
	}
	if blob == "" {
		return &notFoundError{What: fmt.Sprintf("path %s in commit %s", file, commit)}
	}
	if dir == "." {
		if tree, err = c.resolveTree(ctx, commit); err != nil {
			return err
		}
	}
	if tree == "" {
		return &opError{Op: "ls-tree", Err: fmt.Errorf("no tree entry for %s in commit %s", dir, commit)}
	}
	if listed {
		if ok, err := parseMissing(listing, blob); err != nil || ok {
			return err
		}
	} else if ok, err := c.present(ctx, tree, blob); err != nil || ok {
		return err
	}
	if err := c.fetchBounded(ctx, []string{tree}, maxBytes); err != nil {
		return err
	}
	ok, err := c.present(ctx, tree, blob)
	if err != nil {
		return err
	}
	if !ok {
		return &tooLargeError{Path: file, Size: -1, Limit: maxBytes}
	}
	return nil
}

// fetchBounded fetches wants (tree IDs) again with every blob under them
// within maxBytes. A server that refuses trees by ID (exit 128) is asked
// for the branch last fetched instead: dearer, but what it can serve.
func (c *Client) fetchBounded(ctx context.Context, wants []string, maxBytes int64) error {
	err := c.fetchBoundedOnce(ctx, wants, maxBytes)
	if code, exited := exitCode(err); err == nil || !exited || code != 128 || c.Promisor.Branch == "" {
		return err
	}
	return c.fetchBoundedOnce(ctx, []string{"refs/heads/" + c.Promisor.Branch}, maxBytes)
}

// fetchBoundedOnce fetches wants (tree IDs or a ref). --refetch: else git
// sees it has them and asks for nothing. --stdin: a long history's trees
// would not fit in argv.
func (c *Client) fetchBoundedOnce(ctx context.Context, wants []string, maxBytes int64) error {
	args := []string{"fetch", "--refetch", "--no-tags", "--no-auto-gc", "--no-recurse-submodules",
		"--no-write-fetch-head", "--filter=blob:limit=" + strconv.FormatInt(maxBytes+1, 10), "--stdin",
		"--end-of-options", c.Promisor.Remote}
	res, err := c.run(ctx, args, call{stdin: idLines(wants)})
	if err != nil {
		return &opError{Op: "fetch", Err: err}
	}
	if hasLine(res.Stderr, filterIgnoredLine) {
		c.filterIgnored()
	}
	return nil
}

// resolveTree is commit's root tree; fetchBlob checked commit.
func (c *Client) resolveTree(ctx context.Context, commit string) (string, error) {
	res, err := c.run(ctx, []string{"rev-parse", "--verify", "--quiet", "--end-of-options", commit + "^{tree}"}, call{})
	if err != nil {
		return "", &opError{Op: "rev-parse", Err: err}
	}
	return parseObjectID("rev-parse", res.Stdout)
}

// present: rev-list --missing=print, unlike cat-file, never fetches.
func (c *Client) present(ctx context.Context, tree, id string) (bool, error) {
	listing, err := c.objectsUnder(ctx, tree)
	if err != nil {
		return false, &opError{Op: "rev-list", Err: err}
	}
	return parseMissing(listing, id)
}

func (c *Client) objectsUnder(ctx context.Context, rev string) ([]byte, error) {
	res, err := c.run(ctx, []string{"rev-list", "--objects", "--missing=print", "--end-of-options", rev}, call{})
	return res.Stdout, err
}

// parseMissing reads rev-list --missing=print output: "?<id>" is missing.
func parseMissing(out []byte, id string) (bool, error) {
	for _, line := range outputLines(out) {
		got, _, _ := strings.Cut(line, " ")
		switch got {
		case id:
			return true, nil
		case "?" + id:
			return false, nil
		}
	}
	return false, &opError{Op: "rev-list", Err: fmt.Errorf("object %s is not listed under its tree", id)}
}

func hasLine(out []byte, line string) bool { return slices.Contains(outputLines(out), line) }

// IsAncestorPresent reports whether commit a is an ancestor of (or equal
// to) b without fetching anything, as merge-base would. A missing a is
// git's "bad object" (no ancestor); "a ^b" lists nothing exactly when b
// reaches every commit a reaches.
func (c *Client) IsAncestorPresent(ctx context.Context, a, b string) (bool, error) {
	if err := firstErr(validRef(a), validRef(b)); err != nil {
		return false, err
	}
	res, err := c.run(ctx, []string{"rev-list", "-n", "1", "--missing=print", "--end-of-options", a, "^" + b}, call{})
	if err == nil {
		return len(outputLines(res.Stdout)) == 0, nil
	}
	if code, ok := exitCode(err); ok && code == 128 && hasLine(res.Stderr, "fatal: bad object "+a) {
		return false, nil
	}
	return false, &opError{Op: "rev-list", Err: err}
}
