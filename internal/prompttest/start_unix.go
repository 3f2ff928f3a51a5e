//go:build unix

package prompttest

import (
	"os"
	"testing"

	"github.com/creack/pty"
)

// startTerminal: a new session whose controlling terminal is a fresh
// pseudo-terminal.
func startTerminal(t testing.TB, path string, args []string, opts Options) *Session {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatalf("prompttest: opening a pty: %v", err)
	}
	rows, cols := opts.Rows, opts.Cols
	if rows == 0 {
		rows = 24
	}
	if cols == 0 {
		cols = 80
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		t.Fatalf("prompttest: sizing the pty: %v", err)
	}
	s := &Session{t: t, master: master, ttyName: slave.Name(), enter: "\n", exited: make(chan struct{})}
	if opts.Raw {
		if err := makeRaw(slave); err != nil {
			t.Fatalf("prompttest: raw mode on the pty: %v", err)
		}
		s.enter = "\r"
	}
	files := []*os.File{slave, slave, slave}
	var closeAfter []*os.File // the child's ends, closed in the parent once started
	closeAfter = append(closeAfter, slave)
	if opts.PipeStdin {
		files[0] = s.stdinPipe(opts.Stdin, opts.HoldStdin)
		closeAfter = append(closeAfter, files[0])
	}
	if opts.CaptureOutput {
		files[1], files[2] = s.capture(&closeAfter)
	}
	// The controlling terminal must be one of the child's descriptors; keep
	// it among 0–2 when possible so no extra descriptor leaks into the child.
	ctty := -1
	for i, f := range files {
		if f == slave {
			ctty = i
			break
		}
	}
	if ctty < 0 {
		files = append(files, slave)
		ctty = len(files) - 1
	}
	s.start(path, args, opts, files, ttyAttr(ctty), closeAfter)
	s.TTY = newStream(t, "terminal", master)
	s.TTY.exitNote = s.exitNote
	return s
}
