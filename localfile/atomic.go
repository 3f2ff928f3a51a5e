package localfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteFileAtomic replaces path with data so that a crash at any moment
// leaves either the old or the new content. perm is applied as given.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	f, err := CreateTemp(path)
	if err == nil {
		if err = WriteSynced(f, data, perm); err == nil {
			err = replaceFile(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// Without this the rename itself may not survive a power loss (where
	// the system can sync a directory: syncdir_unix.go).
	dir := filepath.Dir(path)
	if err := SyncDir(dir); err != nil {
		return fmt.Errorf("write %s: new content in place, but syncing %s failed: %w", path, dir, err)
	}
	return nil
}

// CreateTemp creates a temp file beside path, named so that CleanTemps(path)
// finds it when a killed writer leaves it behind.
func CreateTemp(path string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(path), tempPrefix(filepath.Base(path))+"*")
}

// WriteSynced gives f the mode perm, writes data, syncs and closes it: once
// it returns nil the bytes survive a power loss. f is closed either way.
func WriteSynced(f *os.File, data []byte, perm os.FileMode) error {
	err := f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		if err = f.Sync(); err != nil {
			err = fmt.Errorf("sync: %w", err)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func tempPrefix(base string) string { return "." + base + ".tmp-" }

// CleanTemps removes temp files that a killed writer left beside path and
// returns their names. Call it only while holding the lock that guards
// path: then no live writer can own them.
func CleanTemps(path string) ([]string, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
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
