//go:build unix

package exec

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// sysProcAttr starts every child in a new session: it leads its own
// process group (so the group can be signalled as one) and has no
// controlling terminal, so ssh under git fails at once instead of asking
// the operator's terminal for a password.
func sysProcAttr(Tool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// procTree is a child and everything it started: its process group.
type procTree struct {
	mu sync.Mutex
	p  *os.Process
}

func (t *procTree) adopt(p *os.Process, _ *syscall.SysProcAttr) error { t.p = p; return nil }

// interrupt is what Ctrl-C does: SIGINT to the whole group.
func (t *procTree) interrupt() error { return t.signal(syscall.SIGINT) }

func (t *procTree) kill() error { return t.signal(syscall.SIGKILL) }

func (t *procTree) release() {}

func (t *procTree) signal(sig syscall.Signal) error {
	t.mu.Lock()
	p := t.p
	t.mu.Unlock()
	if p == nil {
		return nil
	}
	// The child leads its own group (Setsid), so -pid is its group.
	err := syscall.Kill(-p.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// privateMode: a directory only its owner can use.
func privateMode(m os.FileMode) bool { return m.Perm() == 0o700 }

// executable: an execute bit is set.
func executable(_ string, m os.FileMode) bool { return m&0o111 != 0 }

// exeNames are the file names a PATH entry may hold the program name as.
func exeNames(name string) []string { return []string{name} }

// transientStartError: fork refused for want of a process slot or memory
// for a moment (EAGAIN), as on a loaded Raspberry Pi.
func transientStartError(err error) bool { return errors.Is(err, syscall.EAGAIN) }
