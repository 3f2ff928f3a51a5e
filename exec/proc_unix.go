//go:build unix

package exec

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// sysProcAttr starts every child in a new session: its own process group,
// and no terminal for ssh under git to ask a password on.
func sysProcAttr(Tool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

type procTree struct {
	mu sync.Mutex
	p  *os.Process
}

func (t *procTree) adopt(p *os.Process, _ *syscall.SysProcAttr) error { t.p = p; return nil }

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
	err := syscall.Kill(-p.Pid, sig) // Setsid: -pid is its group
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

func privateMode(m os.FileMode) bool { return m.Perm() == 0o700 }

func executable(_ string, m os.FileMode) bool { return m&0o111 != 0 }

func exeNames(name string) []string { return []string{name} }

// transientStartError: fork refused for a moment (EAGAIN), as on a loaded
// Raspberry Pi.
func transientStartError(err error) bool { return errors.Is(err, syscall.EAGAIN) }
