package localfile

import "path/filepath"

// FreeBytes is the space an unprivileged writer has on the file system
// of path or its nearest existing directory (a capture directory is
// created only when a capture starts).
func FreeBytes(path string) (int64, error) {
	p := filepath.Clean(path)
	for {
		free, err := freeBytes(p)
		if err == nil || !isNotExist(err) {
			return free, err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return 0, err
		}
		p = parent
	}
}
