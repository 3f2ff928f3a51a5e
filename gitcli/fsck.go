package gitcli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"rfhandoff/ident"
)

type FsckMessage struct {
	Type   string // "commit", "tree", "blob" or "tag"
	Object string // its ID
	ID     string // git's message ID, e.g. "badDate", "hasDotgit"
	Text   string // git's explanation (sanitized)
}

func (m FsckMessage) String() string {
	return fmt.Sprintf("%s %s: %s: %s", m.Type, m.Object, m.ID, m.Text)
}

// "error in commit <id>: badDate: invalid author/committer line - bad date"
var fsckLineRE = regexp.MustCompile(`^(error|warning) in (commit|tree|blob|tag) (` + ident.Commit.Inner() + `|` + ident.SHA256.Inner() + `): ([A-Za-z0-9]+): (.*)$`)

// FsckPacks checks the objects of packs alone, with git fsck and the
// runner's message levels (PROTOCOL#mirror), in a scratch partial clone
// where what they refer to is promised: the cost is the new objects only.
func (c *Client) FsckPacks(ctx context.Context, packs []string) (errs, warns []FsckMessage, err error) {
	scratch, err := os.MkdirTemp("", "rfhandoff-fsck-")
	if err != nil {
		return nil, nil, fmt.Errorf("object check: %w", err)
	}
	defer os.RemoveAll(scratch)
	if err := writeScratchRepo(scratch, packs); err != nil {
		return nil, nil, fmt.Errorf("object check: %w", err)
	}
	g := &Client{R: c.R, Dir: scratch, Timeout: c.Timeout, Env: []string{"GIT_DIR=" + scratch, "GIT_NO_LAZY_FETCH=1"}}
	res, runErr := g.run(ctx, []string{"fsck", "--no-dangling", "--no-reflogs", "--no-progress"}, call{})
	for _, line := range outputLines(append(append([]byte{}, res.Stdout...), res.Stderr...)) {
		m := fsckLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		msg := FsckMessage{Type: m[2], Object: m[3], ID: m[4], Text: clean(m[5])}
		if m[1] == "error" {
			errs = append(errs, msg)
		} else {
			warns = append(warns, msg)
		}
	}
	if runErr != nil && len(errs) == 0 {
		// Failed without naming an object: nothing is vouched for.
		return nil, warns, &opError{Op: "fsck", Err: runErr}
	}
	return errs, warns, nil
}

// writeScratchRepo writes the smallest bare repository git accepts, a
// partial clone of a remote with no URL, holding packs as promisor packs.
func writeScratchRepo(dir string, packs []string) error {
	for _, d := range []string{"objects/pack", "objects/info", "refs/heads", "refs/tags"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o700); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/none\n"), 0o600); err != nil {
		return err
	}
	// multiPackIndex off: fsck would start `git multi-pack-index verify`
	// for a file the scratch repository never has.
	config := "[core]\n\trepositoryformatversion = 1\n\tbare = true\n\tmultiPackIndex = false\n" +
		"[extensions]\n\tpartialClone = promised\n[remote \"promised\"]\n\tpromisor = true\n"
	if err := os.WriteFile(filepath.Join(dir, "config"), []byte(config), 0o600); err != nil {
		return err
	}
	for _, p := range packs {
		base := strings.TrimSuffix(p, ".pack")
		for _, ext := range []string{".pack", ".idx"} {
			if err := linkOrCopy(base+ext, filepath.Join(dir, "objects", "pack", filepath.Base(base)+ext)); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "objects", "pack", filepath.Base(base)+".promisor"), nil, 0o600); err != nil {
			return err
		}
	}
	return nil
}

func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func (c *Client) SetRef(ctx context.Context, ref, commit string) error {
	if err := firstErr(validFullRef(ref), ValidObjectID(commit)); err != nil {
		return err
	}
	return c.do(ctx, "update-ref", []string{"update-ref", "--end-of-options", ref, commit}, call{})
}
