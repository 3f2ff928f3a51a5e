//go:build unix

package exec

import "os"

// helperExe is the test binary's name as an allowlisted tool.
const helperExe = "hackrf_info"

func linkHelper(self, path string) error { return os.Symlink(self, path) }
