// Package state is rfhandoff's crash-safe local state (SPEC §4): JSON files
// replaced atomically (temp file, fsync, rename, fsync of the directory),
// read strictly (a corrupt file is an error naming it, never a silent
// reset), and one watcher per side through an OS file lock on a separate
// lock file. It runs no subprocesses and never touches git.
package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteFileAtomic replaces path with data so that a crash at any moment
// leaves either the old or the new content: it writes a temp file in the
// same directory, syncs it, renames it over path and syncs the directory.
// The temp file is removed on any failure. perm is applied as given.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, tempPrefix(base)+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	renamed := false
	defer func() {
		if err != nil && !renamed {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = replaceFile(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	renamed = true
	// Without this the rename itself may not survive a power loss (where
	// the system can sync a directory: syncdir_unix.go).
	if err = SyncDir(dir); err != nil {
		return fmt.Errorf("write %s: new content in place, but syncing %s failed: %w", path, dir, err)
	}
	return nil
}

// tempPrefix names WriteFileAtomic's temp files for base: hidden, and
// recognisable so CleanTemps can find the ones a killed process left.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// CleanTemps removes temp files that a killed writer left beside path and
// returns their names. Call it only while holding the lock that guards
// path: then no live writer can own them.
func CleanTemps(path string) ([]string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), tempPrefix(base)) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return removed, err
		}
		removed = append(removed, p)
	}
	return removed, nil
}
