package e2e

import "testing"

// skipHugePush skips a test that pushes hundreds of megabytes with the
// Windows git: under Wine, git.exe's pack reaches the remote at a few
// hundred KiB a second (an 8 MiB push outlasted a two-minute timeout), so
// such a push cannot finish here. The same test runs on Linux.
func skipHugePush(t *testing.T, bytes int) {
	t.Helper()
	t.Skipf("pushes %d MiB with git.exe, which under Wine moves a pack at a few hundred KiB/s", bytes>>20)
}
