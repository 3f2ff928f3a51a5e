package gitcli

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Mode is a git tree entry mode as git prints it ("100644", "120000", ...).
type Mode string

const (
	ModeFile     Mode = "100644"
	ModeExec     Mode = "100755"
	ModeSymlink  Mode = "120000"
	ModeTree     Mode = "040000"
	ModeGitlink  Mode = "160000"
	modeNotThere Mode = "000000" // diff --raw: the side where a path is absent
)

func (m Mode) IsRegular() bool { return m == ModeFile || m == ModeExec }

var modeKinds = map[Mode]string{ModeFile: "regular file", ModeExec: "executable file", ModeSymlink: "symlink",
	ModeTree: "directory", ModeGitlink: "submodule", modeNotThere: "absent"}

func (m Mode) kind() string {
	if k, ok := modeKinds[m]; ok {
		return k
	}
	return "unknown"
}

type TreeEntry struct {
	Mode Mode
	Type string // blob, tree, commit
	ID   string
	Size int64 // -1 for trees and submodules
	Path string
}

func (c *Client) entry(ctx context.Context, commit, path string) (TreeEntry, error) {
	if err := firstErr(ValidObjectID(commit), ValidRepoPath(path)); err != nil {
		return TreeEntry{}, err
	}
	entries, err := output(ctx, c, "ls-tree", []string{"ls-tree", "-l", "-z", "--full-tree", "--end-of-options", commit, "--", path}, call{}, parseLsTree)
	if err != nil {
		return TreeEntry{}, err
	}
	for _, e := range entries {
		if e.Path == path {
			return e, nil
		}
	}
	return TreeEntry{}, &notFoundError{What: fmt.Sprintf("path %s in commit %s", path, commit)}
}

// ShowFile returns the bytes of the regular file at path in commit, at most
// maxBytes of them. Anything else is refused before any content is read
// (or, in a partial clone, fetched).
func (c *Client) ShowFile(ctx context.Context, commit, path string, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		return nil, invalid("size limit", strconv.FormatInt(maxBytes, 10), "must be positive")
	}
	if c.Promisor != nil {
		if err := c.fetchBlob(ctx, commit, path, maxBytes); err != nil {
			return nil, err
		}
	}
	e, err := c.entry(ctx, commit, path)
	if err != nil {
		return nil, err
	}
	if e.Type != "blob" || !e.Mode.IsRegular() {
		return nil, &notRegularFileError{Path: path, Mode: e.Mode}
	}
	if e.Size > maxBytes {
		return nil, &tooLargeError{Path: path, Size: e.Size, Limit: maxBytes}
	}
	data, err := c.ReadBlob(ctx, e.ID, maxBytes)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != e.Size {
		return nil, &opError{Op: "cat-file", Err: fmt.Errorf("read %d bytes of %s, expected %d", len(data), path, e.Size)}
	}
	return data, nil
}

func parseLsTree(out []byte) ([]TreeEntry, error) { return parseLsTreeRecords(out, 4) }

// parseLsTreeRecords parses ls-tree -z output of 4 fields (-l) or 3 (no sizes).
func parseLsTreeRecords(out []byte, fields int) ([]TreeEntry, error) {
	var entries []TreeEntry
	if len(out) > 0 && out[len(out)-1] != 0 {
		return nil, fmt.Errorf("ls-tree output is not NUL-terminated")
	}
	for i, rec := range splitNUL(out) {
		meta, path, ok := strings.Cut(rec, "\t")
		if !ok || path == "" {
			return nil, fmt.Errorf("ls-tree record %d %q: no path", i+1, rec)
		}
		f := strings.Fields(meta)
		if len(f) != fields {
			return nil, fmt.Errorf("ls-tree record %d %q: want %d fields before the path", i+1, rec, fields)
		}
		e := TreeEntry{Mode: Mode(f[0]), Type: f[1], ID: f[2], Path: path, Size: -1}
		if len(f[0]) != 6 || strings.Trim(f[0], "01234567") != "" {
			return nil, fmt.Errorf("ls-tree record %d %q: bad mode", i+1, rec)
		}
		switch e.Type {
		case "blob", "tree", "commit":
		default:
			return nil, fmt.Errorf("ls-tree record %d %q: bad type", i+1, rec)
		}
		if ValidObjectID(e.ID) != nil {
			return nil, fmt.Errorf("ls-tree record %d %q: bad object ID", i+1, rec)
		}
		if fields == 3 {
			entries = append(entries, e)
			continue
		}
		if f[3] != "-" {
			n, err := strconv.ParseInt(f[3], 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("ls-tree record %d %q: bad size", i+1, rec)
			}
			e.Size = n
		}
		if (e.Type == "blob") != (e.Size >= 0) {
			return nil, fmt.Errorf("ls-tree record %d %q: size does not fit type", i+1, rec)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// DirLevels lists, with full paths, the entries directly inside commit's
// root tree and each directory on the way to dir.
func (c *Client) DirLevels(ctx context.Context, commit, dir string) ([]TreeEntry, error) {
	if err := firstErr(validRef(commit), ValidRepoPath(dir)); err != nil {
		return nil, err
	}
	args := []string{"ls-tree", "-t", "-l", "-z", "--full-tree", "--end-of-options", commit, "--", "."}
	levels := map[string]bool{".": true}
	cur := ""
	for _, comp := range strings.Split(dir, "/") {
		cur = path.Join(cur, comp)
		levels[cur] = true
		args = append(args, cur+"/") // a trailing slash lists the directory's entries
	}
	entries, err := output(ctx, c, "ls-tree", args, call{env: []string{"GIT_LITERAL_PATHSPECS=1"}}, parseLsTree)
	if err != nil {
		return nil, err
	}
	out := entries[:0]
	for _, e := range entries {
		if levels[path.Dir(e.Path)] {
			out = append(out, e)
		}
	}
	return out, nil
}

func (c *Client) ReadBlob(ctx context.Context, id string, maxBytes int64) ([]byte, error) {
	if err := ValidObjectID(id); err != nil {
		return nil, err
	}
	return output(ctx, c, "cat-file", []string{"cat-file", "blob", "--end-of-options", id}, call{maxOutput: maxBytes},
		func(out []byte) ([]byte, error) { return out, nil })
}
