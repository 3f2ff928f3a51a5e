//go:build unix

package hackrfcli

import "os"

// Absolute paths as the platform writes them.
const (
	captureFile = "/data/capture.ci8"
	txFile      = "/data/tx.ci8"
)

// toolFile is a HackRF tool's file name.
func toolFile(tool string) string { return tool }

// linkSelf makes path run the test binary (the simulator, by its name).
func linkSelf(self, path string) error { return os.Symlink(self, path) }
