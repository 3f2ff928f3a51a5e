package hacksim

import (
	"fmt"
	"os"
)

// IsSimulator reports whether the executable at path is this running
// rfhandoff binary, which run under a HackRF tool's name is the simulator:
// path and os.Executable() are the same file (os.SameFile: the file
// itself, a symlink to it or a hard link). A copy of rfhandoff is not the
// same file; it still says what it is on every run
// (hackrfcli.SimulatorMarker). An error means path or the running
// executable could not be looked at.
func IsSimulator(path string) (bool, error) {
	self, err := os.Executable()
	if err != nil {
		return false, fmt.Errorf("finding the running rfhandoff executable: %w", err)
	}
	st, err := os.Stat(self)
	if err != nil {
		return false, fmt.Errorf("the running rfhandoff executable: %w", err)
	}
	tool, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return os.SameFile(st, tool), nil
}
