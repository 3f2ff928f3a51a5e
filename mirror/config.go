package mirror

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/localfile"
)

// ownConfig is the mirror's whole config file as rebuild writes it. Git
// reads a repository's own config before the command line and the
// environment, and some of its keys cannot be overridden from there (the
// remote's URL is a list: one in the file comes first; url.<base>.insteadOf
// rewrites whatever URL the environment gives). So the file must be
// rfhandoff's byte for byte: guard refuses to run git in a mirror whose
// config is anything else, and the next fetch rebuilds it.
func ownConfig(remote string) []byte {
	return []byte("[core]\n\trepositoryformatversion = 0\n\tbare = true\n" +
		"[remote \"" + remote + "\"]\n\tpromisor = true\n\tpartialclonefilter = " + filter + "\n" +
		"[gc]\n\tauto = 0\n")
}

// maxConfigBytes bounds the read of the mirror's config: anything longer
// is not rfhandoff's.
const maxConfigBytes = 4 << 10

// guard reports why the mirror's config is not rfhandoff's, or nil. It
// runs before every git call in the mirror (gitcli.Client.Guard): reading
// a small file costs nothing beside a git process, and a config changed
// between two calls is caught at the next one. A commondir file would make
// git read another repository's config instead.
func (m *Mirror) guard() error {
	if _, err := os.Lstat(filepath.Join(m.Dir, "commondir")); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("mirror %s: it has a commondir file, which would make git read another repository's config: refusing to run git in it; the next fetch rebuilds the mirror", m.Dir)
	}
	data, err := localfile.ReadRegular(filepath.Join(m.Dir, "config"), maxConfigBytes)
	if err == nil && bytes.Equal(data, ownConfig(m.Remote)) {
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(m.Dir); errors.Is(serr, fs.ErrNotExist) {
			return nil // deleted whole: ensure rebuilds it, a read finds nothing
		}
	}
	why := "its config is not the one rfhandoff wrote"
	if err != nil {
		why = fmt.Sprintf("its config cannot be read as rfhandoff's (%v)", err)
	}
	return fmt.Errorf("mirror %s: %s: refusing to run git in it; the next fetch rebuilds the mirror", m.Dir, why)
}

// configChange says, for the warning of a rebuild, how the mirror's config
// differs from rfhandoff's: the keys someone else set, as git reads the
// file itself (includes are listed, not followed).
func (m *Mirror) configChange(ctx context.Context) string {
	if _, err := os.Lstat(filepath.Join(m.Dir, "commondir")); err == nil {
		return "it has a commondir file (git would read another repository's config)"
	}
	g := &gitcli.Client{R: m.git.R, Dir: m.Dir, Timeout: m.git.Timeout, Env: []string{"GIT_DIR=" + m.Dir}}
	got, err := g.ConfigFileEntries(ctx, filepath.Join(m.Dir, "config"))
	if err != nil {
		return fmt.Sprintf("its config is not the one rfhandoff wrote (%v)", err)
	}
	var added []string
	for _, kv := range got {
		if !slices.Contains(ownEntries(m.Remote), kv) {
			added = append(added, exec.RedactURL(kv))
		}
	}
	slices.Sort(added)
	if len(added) == 0 {
		return "its config is not the one rfhandoff wrote (reformatted, or a key removed)"
	}
	return "its config is not the one rfhandoff wrote: someone set " + strings.Join(added, ", ")
}

// ownEntries are ownConfig's keys and values as git lists them.
func ownEntries(remote string) []string {
	return []string{
		"core.repositoryformatversion=0", "core.bare=true",
		"remote." + remote + ".promisor=true", "remote." + remote + ".partialclonefilter=" + filter,
		"gc.auto=0",
	}
}
