package exec

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
)

// A console process can send a Ctrl-C only to a console it is attached to,
// and only to every process on it. So the Ctrl-C for a HackRF tool, which
// has a console of its own, is sent by a helper: rfhandoff itself, started
// again with CtrlCHelperEnv naming the tool's pid, which attaches to that console,
// ignores the event itself and raises it (ServeHelper). hackrf_transfer
// then stops as on a keyboard Ctrl-C (its SetConsoleCtrlHandler). Exported
// for the tests' prompttest, which stops a watcher on its console this way.
const CtrlCHelperEnv = "RFHANDOFF_INTERNAL_CTRL_C_PID"

// helperEnabled is set by ServeHelper: only a binary whose main calls it
// can serve as the helper (a test binary that does not would run its
// tests instead). Without it a tool's interrupt ends its job.
var helperEnabled atomic.Bool

var (
	kernel32              = windows.NewLazySystemDLL("kernel32.dll")
	procAttachConsole     = kernel32.NewProc("AttachConsole")
	procFreeConsole       = kernel32.NewProc("FreeConsole")
	procSetConsoleCtrlHdl = kernel32.NewProc("SetConsoleCtrlHandler")
)

// ServeHelper must be the first thing main does. When this process was
// started as the Ctrl-C helper it does that job and exits; otherwise it
// only records that the helper is available.
func ServeHelper() {
	v, ok := os.LookupEnv(CtrlCHelperEnv)
	if !ok || len(os.Args) != 1 {
		helperEnabled.Store(true)
		return
	}
	pid, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%q: not a pid\n", CtrlCHelperEnv, v)
		os.Exit(2)
	}
	if err := raiseCtrlC(uint32(pid)); err != nil {
		fmt.Fprintf(os.Stderr, "Ctrl-C to process %d: %v\n", pid, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func raiseCtrlC(pid uint32) error {
	procFreeConsole.Call()
	if r, _, err := procAttachConsole.Call(uintptr(pid)); r == 0 {
		return fmt.Errorf("attaching to its console: %w", err)
	}
	// NULL handler, TRUE: this process ignores the event it raises.
	if r, _, err := procSetConsoleCtrlHdl.Call(0, 1); r == 0 {
		return fmt.Errorf("ignoring Ctrl-C: %w", err)
	}
	// Group 0: every process on the console, which is the tool's alone.
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_C_EVENT, 0)
}

// helperTimeout bounds the helper's run: under Wine on a loaded machine a
// Go binary's start alone has taken more than 5 s, and a helper stopped
// early turns a clean Ctrl-C into ending the tool's job.
const helperTimeout = 30 * time.Second

// sendCtrlC runs the helper for pid and waits for it (helperTimeout at
// most).
func sendCtrlC(pid int) error {
	if !helperEnabled.Load() {
		return fmt.Errorf("no Ctrl-C helper in this binary")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), helperTimeout)
	defer cancel()
	cmd := osexec.CommandContext(ctx, self)
	cmd.Env = append(buildEnv(os.Environ(), nil), CtrlCHelperEnv+"="+strconv.Itoa(pid))
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ctrl-c helper: %w: %s", err, out)
	}
	return nil
}
