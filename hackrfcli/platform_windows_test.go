package hackrfcli

import (
	"io"
	"os"
)

// Absolute paths as the platform writes them.
const (
	captureFile = `C:\data\capture.ci8`
	txFile      = `C:\data\tx.ci8`
)

// toolFile is a HackRF tool's file name: Windows runs only a .exe.
func toolFile(tool string) string { return tool + ".exe" }

// linkSelf copies: a symlink needs a privilege on Windows.
func linkSelf(self, path string) error {
	in, err := os.Open(self)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
