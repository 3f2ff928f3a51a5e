package gitcli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
)

type FileVersion struct {
	Commit string // the (oldest listed) commit that gave the file this content
	Blob   string
	Tree   string // path's directory in Commit: what a partial clone fetches for the blob
	Size   int64  // -1: withheld from a partial clone as over the limit
	Data   []byte // nil when Size is over the caller's limit
}

// FileHistory lists every distinct content of the regular file at path in
// commit's history, newest first, each read up to maxBytes. In a partial
// clone a version still missing after one bounded fetch was withheld as
// over the limit (Size -1, never read).
func (c *Client) FileHistory(ctx context.Context, commit, path string, maxBytes int64) ([]FileVersion, error) {
	versions, _, err := c.fileHistory(ctx, commit, "", path, maxBytes, 0)
	return versions, err
}

// FileHistorySince is FileHistory of commit ^since, so a version that came
// and went between two looks is listed too; a since not in commit's
// history (a mirror rebuilt after a re-anchor) reads the whole history. At
// most maxCommits commits are read, nearest first in topological order
// (whatever dates the commits claim).
func (c *Client) FileHistorySince(ctx context.Context, commit, since, path string, maxBytes int64, maxCommits int) (versions []FileVersion, more bool, err error) {
	if maxCommits <= 0 {
		return nil, false, invalid("commit limit", strconv.Itoa(maxCommits), "must be positive")
	}
	if since != "" {
		in, err := c.IsAncestorPresent(ctx, since, commit)
		if err != nil {
			return nil, false, err
		}
		if !in {
			since = ""
		}
	}
	return c.fileHistory(ctx, commit, since, path, maxBytes, maxCommits)
}

// fileHistory is FileHistory of commit ^since, at most maxCommits commits (0: all).
func (c *Client) fileHistory(ctx context.Context, commit, since, path string, maxBytes int64, maxCommits int) ([]FileVersion, bool, error) {
	var sinceErr error
	if since != "" {
		sinceErr = ValidObjectID(since)
	}
	if err := firstErr(ValidObjectID(commit), sinceErr, ValidRepoPath(path)); err != nil {
		return nil, false, err
	}
	if maxBytes <= 0 {
		return nil, false, invalid("size limit", strconv.FormatInt(maxBytes, 10), "must be positive")
	}
	more := false
	versions, err := output(ctx, c, "log", historyArgs(commit, since, path, maxCommits), call{}, func(out []byte) ([]FileVersion, error) {
		if maxCommits > 0 {
			out, more = firstCommits(out, maxCommits)
		}
		return parseLogRaw(out, path)
	})
	if err != nil {
		return nil, false, err
	}
	versions, err = c.readVersions(ctx, versions, maxBytes)
	return versions, more, err
}

func (c *Client) readVersions(ctx context.Context, versions []FileVersion, maxBytes int64) ([]FileVersion, error) {
	if len(versions) == 0 {
		return nil, nil
	}
	// In a partial clone cat-file would fetch a missing blob at any size:
	// it gets only blobs present after one bounded fetch.
	present := map[string]bool{}
	var err error
	if c.Promisor != nil {
		if present, err = c.historyBlobs(ctx, versions, maxBytes); err != nil {
			return nil, err
		}
	}
	var ids []string
	var at []int // the index in versions of each of ids (a blob is listed once)
	for i, v := range versions {
		versions[i].Size = -1
		if c.Promisor == nil || present[v.Blob] {
			ids = append(ids, v.Blob)
			at = append(at, i)
		}
	}
	if len(ids) == 0 {
		return versions, nil
	}
	sizes, err := output(ctx, c, "cat-file --batch-check", []string{"cat-file", "--batch-check"}, call{stdin: idLines(ids)},
		func(out []byte) ([]int64, error) { return parseBatchCheck(out, ids) })
	if err != nil {
		return nil, err
	}
	var read []string
	var total int64
	for j, n := range sizes {
		versions[at[j]].Size = n
		if n <= maxBytes {
			read = append(read, ids[j])
			total += n + batchHeaderMax
		}
	}
	if len(read) == 0 {
		return versions, nil
	}
	contents, err := output(ctx, c, "cat-file --batch", []string{"cat-file", "--batch"}, call{stdin: idLines(read), maxOutput: total},
		func(out []byte) (map[string][]byte, error) { return parseBatch(out, read, "blob") })
	if err != nil {
		return nil, err
	}
	for i := range versions {
		versions[i].Data = contents[versions[i].Blob]
	}
	return versions, nil
}

// historyArgs lists the commits that changed path, their root trees and
// raw diffs (-t: with the trees on the way). --full-history -m keep what
// history simplification would drop; the --no-* options keep a user's log
// config out. maxCommits+1 lets firstCommits tell whether there were more.
func historyArgs(commit, since, path string, maxCommits int) []string {
	args := []string{"log", "--format=format:commit %H %T", "--raw", "-t", "--no-abbrev", "--full-history", "-m", "--root",
		"--no-renames", "--no-follow", "--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-relative"}
	if maxCommits > 0 {
		args = append(args, "--topo-order", "--max-count="+strconv.Itoa(maxCommits+1))
	}
	args = append(args, "--end-of-options", commit)
	if since != "" {
		args = append(args, "^"+since)
	}
	return append(args, "--", path)
}

// firstCommits cuts historyArgs' output before its (n+1)th commit (a
// merge's several diffs count once) and reports whether there was one.
func firstCommits(out []byte, n int) ([]byte, bool) {
	seen := map[string]bool{}
	at := 0
	for line := range bytes.Lines(out) {
		if id, ok := bytes.CutPrefix(line, []byte("commit ")); ok {
			id, _, _ = bytes.Cut(bytes.TrimSpace(id), []byte(" "))
			if !seen[string(id)] {
				if len(seen) == n {
					return out[:at], true
				}
				seen[string(id)] = true
			}
		}
		at += len(line)
	}
	return out, false
}

// batchHeaderMax bounds one object's header and newline in --batch output.
const batchHeaderMax = 128

// parseLogRaw reads historyArgs' output (paths are unquoted: ValidRepoPath
// admits nothing git would quote): one entry per blob of file as a regular
// file, naming the oldest commit that listed it and file's directory tree.
func parseLogRaw(out []byte, file string) ([]FileVersion, error) {
	var versions []FileVersion
	at := map[string]int{}
	dir := path.Dir(file)
	commit, dirTree := "", ""
	err := walkRawLog(out, func(f []string) string {
		if len(f) < 1 || len(f) > 2 || ValidObjectID(f[0]) != nil || (len(f) == 2 && ValidObjectID(f[1]) != nil) {
			return "bad commit ID"
		}
		commit, dirTree = f[0], ""
		if len(f) == 2 && dir == "." {
			dirTree = f[1]
		}
		return ""
	}, func(f []string, p string) string {
		switch {
		case ValidObjectID(f[3]) != nil:
			return "bad object ID"
		case p == dir && f[1] == "040000":
			dirTree = f[3]
		case p != file || !Mode(f[1]).IsRegular():
			// deleted, a symlink, a tree on the way, or another path below a directory of that name
		default:
			if i, seen := at[f[3]]; seen {
				versions[i].Commit, versions[i].Tree = commit, dirTree
				return ""
			}
			at[f[3]] = len(versions)
			versions = append(versions, FileVersion{Commit: commit, Blob: f[3], Tree: dirTree})
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	return versions, nil
}

// walkRawLog reads git log --raw output; its callbacks, for each "commit"
// line and each diff line, say what is wrong with it, if anything.
func walkRawLog(out []byte, header func(f []string) string, diff func(f []string, path string) string) error {
	started := false
	for n, line := range strings.Split(string(out), "\n") {
		why := ""
		switch {
		case line == "":
		case strings.HasPrefix(line, "commit "):
			why = header(strings.Fields(strings.TrimPrefix(line, "commit ")))
			started = true
		case strings.HasPrefix(line, ":"):
			meta, p, ok := strings.Cut(line[1:], "\t")
			f := strings.Fields(meta)
			switch {
			case !started:
				why = "diff line before any commit"
			case !ok || len(f) != 5:
				why = "want a raw diff line"
			default:
				why = diff(f, p)
			}
		default:
			why = "unexpected"
		}
		if why != "" {
			return fmt.Errorf("log line %d %q: %s", n+1, line, why)
		}
	}
	return nil
}

func idLines(ids []string) io.Reader { return strings.NewReader(strings.Join(ids, "\n") + "\n") }

func parseBatchCheck(out []byte, ids []string) ([]int64, error) {
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(out) == 0 || len(lines) != len(ids) {
		return nil, fmt.Errorf("%d lines for %d objects", len(lines), len(ids))
	}
	sizes := make([]int64, len(ids))
	for i, line := range lines {
		size, err := batchHeader(line, ids[i], "blob")
		if err != nil {
			return nil, err
		}
		sizes[i] = size
	}
	return sizes, nil
}

func batchHeader(line, id, kind string) (int64, error) {
	f := strings.Fields(line)
	if len(f) == 2 && f[0] == id && f[1] == "missing" {
		return 0, fmt.Errorf("object %s is missing", id)
	}
	if len(f) != 3 || f[0] != id || f[1] != kind {
		return 0, fmt.Errorf("%q: want %q followed by \"%s <size>\"", line, id, kind)
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q: bad size", line)
	}
	return n, nil
}

func parseBatch(out []byte, ids []string, kind string) (map[string][]byte, error) {
	contents := make(map[string][]byte, len(ids))
	rest := out
	for _, id := range ids {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("output ends before the header of %s", id)
		}
		size, err := batchHeader(string(rest[:nl]), id, kind)
		if err != nil {
			return nil, err
		}
		rest = rest[nl+1:]
		if int64(len(rest)) < size+1 || rest[size] != '\n' {
			return nil, fmt.Errorf("output ends inside the %d bytes of %s", size, id)
		}
		contents[id] = bytes.Clone(rest[:size])
		rest = rest[size+1:]
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("%d bytes after the last object", len(rest))
	}
	return contents, nil
}

// historyBlobs makes the versions' blobs within maxBytes present in a
// partial clone (fetching their directory trees, as fetchBlob does) and
// returns the set that is.
func (c *Client) historyBlobs(ctx context.Context, versions []FileVersion, maxBytes int64) (map[string]bool, error) {
	var trees []string
	for _, v := range versions {
		if v.Tree == "" {
			return nil, &opError{Op: "log", Err: fmt.Errorf("no tree listed for the directory of the file in commit %s", v.Commit)}
		}
		if !slices.Contains(trees, v.Tree) {
			trees = append(trees, v.Tree)
		}
	}
	present, err := c.presentUnder(ctx, trees)
	if err != nil {
		return nil, err
	}
	memo := c.Promisor.Withheld
	var want []string
	for _, v := range versions {
		if present[v.Blob] || (memo != nil && memo.Withheld(v.Blob, maxBytes)) {
			continue
		}
		if !slices.Contains(want, v.Tree) {
			want = append(want, v.Tree)
		}
	}
	if len(want) == 0 {
		return present, nil
	}
	if err := c.fetchBounded(ctx, want, maxBytes); err != nil {
		return nil, err
	}
	if present, err = c.presentUnder(ctx, trees); err != nil {
		return nil, err
	}
	if memo != nil {
		var withheld []string
		for _, v := range versions {
			if !present[v.Blob] {
				withheld = append(withheld, v.Blob)
			}
		}
		if len(withheld) > 0 {
			if err := memo.RecordWithheld(withheld, maxBytes); err != nil {
				return nil, err
			}
		}
	}
	return present, nil
}

func (c *Client) presentUnder(ctx context.Context, trees []string) (map[string]bool, error) {
	return output(ctx, c, "rev-list", []string{"rev-list", "--objects", "--missing=print", "--stdin"}, call{stdin: idLines(trees)},
		func(out []byte) (map[string]bool, error) {
			present := map[string]bool{}
			for _, line := range outputLines(out) {
				if id, _, _ := strings.Cut(line, " "); !strings.HasPrefix(id, "?") {
					present[id] = true
				}
			}
			return present, nil
		})
}
