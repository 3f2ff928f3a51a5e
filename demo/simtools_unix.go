//go:build unix

package demo

import (
	"fmt"
	"os"
)

// simToolFile is the file name a simulated tool answers to.
func simToolFile(name string) string { return name }

// linkSimTool makes path the simulator: a symlink to the rfhandoff binary.
func linkSimTool(exe, path string) error { return os.Symlink(exe, path) }

// checkSimTool reports whether path is the sandbox's link to exe.
func checkSimTool(path, exe string) error {
	target, err := os.Readlink(path)
	if err != nil {
		return err
	}
	if target != exe {
		return fmt.Errorf("it links to %s", target)
	}
	return nil
}

// autoAvailable: --auto gives each prompting side a pseudo-terminal.
func autoAvailable() error { return nil }
