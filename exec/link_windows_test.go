package exec

import (
	"io"
	"os"
)

// helperExe is the test binary's name as an allowlisted tool.
const helperExe = "hackrf_info.exe"

// linkHelper copies: a symlink needs a privilege on Windows.
func linkHelper(self, path string) error {
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
