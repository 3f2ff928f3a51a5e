//go:build unix

package state

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
