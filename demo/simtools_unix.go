//go:build unix

package demo

import (
	"fmt"
	"os"
)

func simToolFile(name string) string { return name }

func linkSimTool(exe, path string) error { return os.Symlink(exe, path) }

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
