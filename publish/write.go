package publish

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"strings"

	"rfhandoff/gitcli"
)

type file struct {
	path string // slash-separated, relative to the repository's root
	data []byte
}

func (f file) name() string { return path.Base(f.path) }

// symlinkTargetMax bounds how much of a refused symlink's target the message reads.
const symlinkTargetMax = 4096

// checkLevels refuses a result branch on which a component of dir is anything but a
// directory (a symlink above all), or a result file's path holds anything but a regular file.
// Missing components are fine: the commit creates them.
func checkLevels(ctx context.Context, clone *gitcli.Client, levels []gitcli.TreeEntry, dir string, files []file) error {
	at := make(map[string]gitcli.TreeEntry, len(levels))
	for _, e := range levels {
		at[e.Path] = e
	}
	done := ""
	for _, c := range strings.Split(dir, "/") {
		done = path.Join(done, c)
		e, ok := at[done]
		switch {
		case !ok:
			return nil // created, with everything below it
		case e.Mode == gitcli.ModeSymlink:
			return symlinkError(ctx, clone, e)
		case e.Mode != gitcli.ModeTree:
			return unsafePath(done, "is not a directory ("+kind(e.Mode)+")")
		}
	}
	for _, f := range files {
		e, ok := at[f.path]
		switch {
		case !ok:
		case e.Mode == gitcli.ModeSymlink:
			return symlinkError(ctx, clone, e)
		case !e.Mode.IsRegular():
			// An executable bit is no reason to refuse: the new file is
			// 100644 whatever the branch's copy was.
			return unsafePath(f.path, "is not a regular file ("+kind(e.Mode)+")")
		}
	}
	return nil
}

func symlinkError(ctx context.Context, clone *gitcli.Client, e gitcli.TreeEntry) error {
	target, err := clone.ReadBlob(ctx, e.ID, symlinkTargetMax)
	if err != nil {
		return unsafePath(e.Path, "is a symlink")
	}
	return unsafePath(e.Path, fmt.Sprintf("is a symlink (to %q)", target))
}

var modeKinds = map[gitcli.Mode]string{
	gitcli.ModeFile:    "a regular file",
	gitcli.ModeExec:    "a regular file",
	gitcli.ModeTree:    "a directory",
	gitcli.ModeSymlink: "a symlink",
	gitcli.ModeGitlink: "a submodule",
}

func kind(m gitcli.Mode) string { return cmp.Or(modeKinds[m], "an entry of mode "+string(m)) }
