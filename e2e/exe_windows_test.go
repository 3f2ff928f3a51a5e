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

// nodesPlanned and nodesLimits time the three-node scenario under Wine,
// where each git.exe start is slow: with 40 s the three READYs reached MAIN
// 13 s before the window closed and 38 s after publication, and MAIN rightly
// refused the record ("the nodes' capture time left is not enough").
const (
	nodesPlanned = 120
	nodesLimits  = "max_publication_age_s = 300\n"
)
