//go:build unix

package localfile

import "os"

// SyncDir makes a rename or a new link in dir survive a power loss.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// replaceFile: a reader holding path keeps what it opened.
func replaceFile(tmp, path string) error { return os.Rename(tmp, path) }
