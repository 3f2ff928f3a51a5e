package gitcli

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// FileVersion is one content a file had somewhere in a commit's history.
type FileVersion struct {
	// Commit is a commit that gave the file this content (the oldest one
	// git log listed, when several did).
	Commit string
	Blob   string
	Size   int64
	// Data is the content; nil when Size is over the caller's limit (the
	// version is listed, but not read).
	Data []byte
}

// FileHistory lists every distinct content of the regular file at path in
// the history of commit (merges and side branches included), newest first,
// and reads each one up to maxBytes. It costs three git processes whatever
// the history's length: one log, one cat-file --batch-check for the sizes
// and one cat-file --batch for the contents. A path that never existed
// gives no versions and no error.
func (c *Client) FileHistory(ctx context.Context, commit, path string, maxBytes int64) ([]FileVersion, error) {
	if err := ValidObjectID(commit); err != nil {
		return nil, err
	}
	if err := ValidRepoPath(path); err != nil {
		return nil, err
	}
	if maxBytes <= 0 {
		return nil, invalid("size limit", strconv.FormatInt(maxBytes, 10), "must be positive")
	}
	res, err := c.run(ctx, historyArgs(commit, path), call{})
	if err != nil {
		return nil, &Error{Op: "log", Err: err}
	}
	versions, err := parseLogRaw(res.Stdout, path)
	if err != nil {
		return nil, &Error{Op: "log", Err: err}
	}
	if len(versions) == 0 {
		return nil, nil
	}
	ids := make([]string, len(versions))
	for i, v := range versions {
		ids[i] = v.Blob
	}
	res, err = c.run(ctx, []string{"cat-file", "--batch-check"}, call{stdin: strings.NewReader(strings.Join(ids, "\n") + "\n")})
	if err != nil {
		return nil, &Error{Op: "cat-file --batch-check", Err: err}
	}
	sizes, err := parseBatchCheck(res.Stdout, ids)
	if err != nil {
		return nil, &Error{Op: "cat-file --batch-check", Err: err}
	}
	var read []string
	var total int64
	for i := range versions {
		versions[i].Size = sizes[i]
		if sizes[i] <= maxBytes {
			read = append(read, versions[i].Blob)
			total += sizes[i] + batchHeaderMax
		}
	}
	if len(read) == 0 {
		return versions, nil
	}
	res, err = c.run(ctx, []string{"cat-file", "--batch"},
		call{stdin: strings.NewReader(strings.Join(read, "\n") + "\n"), maxOutput: total})
	if err != nil {
		return nil, &Error{Op: "cat-file --batch", Err: err}
	}
	contents, err := parseBatch(res.Stdout, read)
	if err != nil {
		return nil, &Error{Op: "cat-file --batch", Err: err}
	}
	for i := range versions {
		if d, ok := contents[versions[i].Blob]; ok {
			versions[i].Data = d
		}
	}
	return versions, nil
}

// historyArgs lists the commits that changed path with their raw diffs.
// --full-history and -m keep side branches and merges that history
// simplification would drop; --root shows the first version; the --no-*
// options keep a user's log config (follow, signatures, renames) from
// changing the output.
func historyArgs(commit, path string) []string {
	return []string{"log", "--format=format:commit %H", "--raw", "--no-abbrev", "--full-history", "-m", "--root",
		"--no-renames", "--no-follow", "--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--end-of-options", commit, "--", path}
}

// batchHeaderMax bounds one "<id> blob <size>\n" header and the newline
// after the content in cat-file --batch output.
const batchHeaderMax = 128

// parseLogRaw reads historyArgs' output: "commit <id>" lines, each followed
// by raw diff lines ":<old mode> <new mode> <old id> <new id> <status>\t<path>"
// (paths are unquoted: ValidRepoPath admits nothing git would quote). It
// keeps the new side of lines for exactly path that is a regular file, one
// entry per blob, in log order (newest first), naming the last (oldest)
// commit that listed it.
func parseLogRaw(out []byte, path string) ([]FileVersion, error) {
	var versions []FileVersion
	at := map[string]int{}
	commit := ""
	for n, line := range strings.Split(string(out), "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "commit "):
			commit = strings.TrimPrefix(line, "commit ")
			if ValidObjectID(commit) != nil {
				return nil, fmt.Errorf("log line %d %q: bad commit ID", n+1, line)
			}
		case strings.HasPrefix(line, ":"):
			if commit == "" {
				return nil, fmt.Errorf("log line %d %q: diff line before any commit", n+1, line)
			}
			meta, p, ok := strings.Cut(line[1:], "\t")
			f := strings.Fields(meta)
			if !ok || len(f) != 5 {
				return nil, fmt.Errorf("log line %d %q: want a raw diff line", n+1, line)
			}
			if ValidObjectID(f[3]) != nil {
				return nil, fmt.Errorf("log line %d %q: bad object ID", n+1, line)
			}
			if p != path || !Mode(f[1]).IsRegular() {
				continue // deleted, a symlink, or another path below a directory of that name
			}
			if i, seen := at[f[3]]; seen {
				versions[i].Commit = commit
				continue
			}
			at[f[3]] = len(versions)
			versions = append(versions, FileVersion{Commit: commit, Blob: f[3]})
		default:
			return nil, fmt.Errorf("log line %d %q: unexpected", n+1, line)
		}
	}
	return versions, nil
}

// parseBatchCheck reads cat-file --batch-check output, one
// "<id> <type> <size>" line per requested ID in order, and returns the sizes.
func parseBatchCheck(out []byte, ids []string) ([]int64, error) {
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(out) == 0 || len(lines) != len(ids) {
		return nil, fmt.Errorf("%d lines for %d objects", len(lines), len(ids))
	}
	sizes := make([]int64, len(ids))
	for i, line := range lines {
		size, err := batchHeader(line, ids[i])
		if err != nil {
			return nil, err
		}
		sizes[i] = size
	}
	return sizes, nil
}

// batchHeader checks one "<id> blob <size>" line for id.
func batchHeader(line, id string) (int64, error) {
	f := strings.Fields(line)
	if len(f) == 2 && f[0] == id && f[1] == "missing" {
		return 0, fmt.Errorf("object %s is missing", id)
	}
	if len(f) != 3 || f[0] != id || f[1] != "blob" {
		return 0, fmt.Errorf("%q: want %q followed by \"blob <size>\"", line, id)
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q: bad size", line)
	}
	return n, nil
}

// parseBatch reads cat-file --batch output for ids, in order: for each a
// header line, exactly size bytes of content and a newline.
func parseBatch(out []byte, ids []string) (map[string][]byte, error) {
	contents := make(map[string][]byte, len(ids))
	rest := out
	for _, id := range ids {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("output ends before the header of %s", id)
		}
		size, err := batchHeader(string(rest[:nl]), id)
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
