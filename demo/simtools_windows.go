package demo

import "errors"

// simToolFile is the file name a simulated tool answers to: exec finds
// and accepts only a .exe on Windows.
func simToolFile(name string) string { return name + ".exe" }

// linkSimTool copies: a symlink needs a privilege on Windows.
func linkSimTool(exe, path string) error { return copyFile(exe, path) }

// checkSimTool reports whether path is a copy of exe, byte for byte.
func checkSimTool(path, exe string) error { return sameContent(path, exe) }

// autoAvailable: creack/pty has no Windows support, and --auto answers
// only on pseudo-terminals of its own.
func autoAvailable() error {
	return errors.New("demo --auto is not available on Windows: it answers the prompts on pseudo-terminals of its own, " +
		"and there is no pseudo-terminal support here; run `rfhandoff demo` in a console and type the answers yourself")
}
