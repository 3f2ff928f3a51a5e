package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// file is one file publish writes, by repository-relative path.
type file struct {
	path string // slash-separated, relative to the clone's root
	data []byte
}

// prepareDir makes sure every component of dir (relative to root) is a
// plain directory, creating missing ones, and refuses a symlink or
// anything else on the way. The clone is ours (a 0700 temp directory) and
// nothing else writes into it, so checking with Lstat and then writing is
// not racy.
func prepareDir(root, dir string) error {
	cur := root
	done := ""
	for _, c := range strings.Split(dir, "/") {
		cur = filepath.Join(cur, c)
		done = path.Join(done, c)
		st, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(cur, 0o755); err != nil {
				return fmt.Errorf("creating %s in the clone: %w", done, err)
			}
			continue
		case err != nil:
			return fmt.Errorf("inspecting %s in the clone: %w", done, err)
		}
		switch t := st.Mode().Type(); {
		case t&fs.ModeSymlink != 0:
			target, _ := os.Readlink(cur)
			return &UnsafePathError{Path: done, Reason: fmt.Sprintf("is a symlink (to %q)", target)}
		case !st.IsDir():
			return &UnsafePathError{Path: done, Reason: "is not a directory (" + kind(st.Mode()) + ")"}
		}
	}
	return nil
}

// writeFile replaces the regular file at f.path (if any) with f.data, mode
// 0644. A symlink or anything else that is not a regular file is refused,
// never followed or replaced.
func writeFile(root string, f file) error {
	p := filepath.Join(root, filepath.FromSlash(f.path))
	st, err := os.Lstat(p)
	switch {
	case err == nil && st.Mode().Type()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(p)
		return &UnsafePathError{Path: f.path, Reason: fmt.Sprintf("is a symlink (to %q)", target)}
	case err == nil && !st.Mode().IsRegular():
		return &UnsafePathError{Path: f.path, Reason: "is not a regular file (" + kind(st.Mode()) + ")"}
	case err == nil:
		// A fresh file gets a fresh mode: an executable bit on the
		// branch's copy must not carry over.
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("replacing %s in the clone: %w", f.path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("inspecting %s in the clone: %w", f.path, err)
	}
	// O_EXCL: a path that reappeared since the check (a symlink
	// included) makes the open fail instead of being followed.
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("writing %s in the clone: %w", f.path, err)
	}
	if _, err := out.Write(f.data); err != nil {
		out.Close()
		return fmt.Errorf("writing %s in the clone: %w", f.path, err)
	}
	if err := out.Chmod(0o644); err != nil { // whatever the umask did
		out.Close()
		return fmt.Errorf("writing %s in the clone: %w", f.path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("writing %s in the clone: %w", f.path, err)
	}
	return nil
}

func kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symlink"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
