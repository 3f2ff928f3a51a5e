package prompttest

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/windows"

	"rfhandoff/exec"
)

// helperTimeout bounds the helper's run (it attaches, raises and exits).
const helperTimeout = time.Minute

// signal: Windows has no signals to send another process. os.Kill
// terminates it; an interrupt (os.Interrupt, SIGTERM: what a Unix test
// sends to stop a watcher cleanly) is a Ctrl-C on the child's console,
// raised by the child's own binary as the Ctrl-C helper, which Go reads as
// os.Interrupt (exec.CtrlCHelperEnv: a console process can raise Ctrl-C
// only on the console it is attached to, and the test is on none of the
// child's). A child without a console (StartDetached without
// Options.Console) cannot be sent one: the test skips there, naming it.
func (s *Session) signal(sig os.Signal) error {
	switch sig {
	case os.Kill:
		return s.proc.Kill()
	case os.Interrupt, syscall.SIGTERM:
	default:
		return fmt.Errorf("%v: not supported by windows", sig)
	}
	if s.Exited() {
		return os.ErrProcessDone
	}
	if !s.console {
		s.t.Skipf("prompttest: process %d has no console, and Windows delivers Ctrl-C only through one: "+
			"a process started without a console can only be terminated, so its clean stop is not tested here", s.proc.Pid)
	}
	return s.ctrlC()
}

// typeCtrlC: a Ctrl-C typed on a pseudo-console is the console's Ctrl-C
// event for every process on it, as the key is on a real console; Wine's
// pseudo-console instead ends the child (exit 0, no handler run) on a
// typed 0x03, so the event is raised as the key would raise it.
func (s *Session) typeCtrlC() bool {
	s.t.Helper()
	if err := s.ctrlC(); err != nil {
		s.t.Fatalf("prompttest: typing Ctrl-C: %v", err)
	}
	return true
}

// ctrlC runs s.path as the Ctrl-C helper for the child and waits for it.
func (s *Session) ctrlC() error {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	env := append(os.Environ(), exec.CtrlCHelperEnv+"="+strconv.Itoa(s.proc.Pid))
	p, err := os.StartProcess(s.path, []string{s.path}, &os.ProcAttr{
		Env: env, Files: []*os.File{null, w, w},
		Sys: &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS},
	})
	w.Close()
	if err != nil {
		return fmt.Errorf("starting the Ctrl-C helper %s: %w", s.path, err)
	}
	out := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		out <- b
	}()
	done := make(chan *os.ProcessState, 1)
	go func() {
		st, _ := p.Wait()
		done <- st
	}()
	select {
	case st := <-done:
		msg := <-out
		if st == nil || !st.Success() {
			return fmt.Errorf("the Ctrl-C helper %s for process %d: %v: %s", s.path, s.proc.Pid, st, msg)
		}
		return nil
	case <-time.After(helperTimeout):
		_ = p.Kill()
		return fmt.Errorf("the Ctrl-C helper %s for process %d did not end within %v", s.path, s.proc.Pid, helperTimeout)
	}
}
