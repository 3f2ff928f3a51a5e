package gitcli

import (
	"context"
	"fmt"
	"strings"
)

func (c *Client) Add(ctx context.Context, paths ...string) error {
	if len(paths) == 0 {
		return invalid("path", "", "nothing to add")
	}
	for _, p := range paths {
		if err := ValidRepoPath(p); err != nil {
			return err
		}
	}
	return c.do(ctx, "add", append([]string{"add", "--"}, paths...), call{})
}

// StagedChange is one staged path with its modes, so the publisher can
// refuse a symlink or a submodule.
type StagedChange struct {
	Status  byte // 'A', 'M', 'D', 'T', ...
	OldMode Mode // "000000" when added
	NewMode Mode // "000000" when deleted
	OldID   string
	NewID   string // all zeros when deleted
	Path    string
}

// TreeChanges lists what changed from commit from to commit to: how the
// publisher reads back a commit it built.
func (c *Client) TreeChanges(ctx context.Context, from, to string) ([]StagedChange, error) {
	if err := firstErr(validRef(from), validRef(to)); err != nil {
		return nil, err
	}
	return output(ctx, c, "diff-tree", []string{"diff-tree", "-r", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", "--no-textconv", "--end-of-options", from, to}, call{}, parseRawZ)
}

// CheckIgnored reports whether git ignores path; one ending in "/" is
// asked about as a directory, existing or not.
func (c *Client) CheckIgnored(ctx context.Context, path string) (bool, error) {
	if err := ValidRepoPath(strings.TrimSuffix(path, "/")); err != nil {
		return false, err
	}
	return c.exitBool(ctx, "check-ignore", []string{"check-ignore", "-q", "--", path}, 0, 1)
}

// parseRawZ parses git diff --raw -z output: each record is followed by
// one path (two for R, C).
func parseRawZ(out []byte) ([]StagedChange, error) {
	if len(out) > 0 && out[len(out)-1] != 0 {
		return nil, fmt.Errorf("raw diff is not NUL-terminated")
	}
	recs := splitNUL(out)
	var changes []StagedChange
	for i := 0; i < len(recs); {
		meta := recs[i]
		f := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(f) != 5 {
			return nil, fmt.Errorf("raw diff record %q: want \":<mode> <mode> <id> <id> <status>\"", meta)
		}
		for _, m := range f[:2] {
			if len(m) != 6 || strings.Trim(m, "01234567") != "" {
				return nil, fmt.Errorf("raw diff record %q: bad mode %q", meta, m)
			}
		}
		for _, id := range f[2:4] {
			if len(id) < 4 || len(id) > 64 || strings.Trim(id, "0123456789abcdef") != "" {
				return nil, fmt.Errorf("raw diff record %q: bad object ID %q", meta, id)
			}
		}
		status := f[4]
		npaths := 1
		switch status[0] {
		case 'R', 'C':
			npaths = 2
		case 'A', 'D', 'M', 'T', 'U', 'X':
			if len(status) != 1 {
				return nil, fmt.Errorf("raw diff record %q: bad status %q", meta, status)
			}
		default:
			return nil, fmt.Errorf("raw diff record %q: bad status %q", meta, status)
		}
		if i+npaths >= len(recs) {
			return nil, fmt.Errorf("raw diff record %q: missing path", meta)
		}
		path := recs[i+npaths] // the new name for a rename or copy
		for _, p := range recs[i+1 : i+1+npaths] {
			if p == "" {
				return nil, fmt.Errorf("raw diff record %q: empty path", meta)
			}
		}
		changes = append(changes, StagedChange{Status: status[0], OldMode: Mode(f[0]), NewMode: Mode(f[1]), OldID: f[2], NewID: f[3], Path: path})
		i += 1 + npaths
	}
	return changes, nil
}
