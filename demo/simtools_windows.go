package demo

import (
	"errors"
	"fmt"
	"io"
	"os"
)

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

// copyFile copies src to a new file dst (never over an existing one).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s to %s: %w", src, dst, err)
	}
	return out.Close()
}
