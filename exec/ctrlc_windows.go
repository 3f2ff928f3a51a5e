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

// A process can send a Ctrl-C only to every process on a console it is
// attached to. So a HackRF tool's Ctrl-C is sent by a helper: rfhandoff
// itself, started again with CtrlCHelperEnv naming the tool's pid
// (ServeHelper). Exported for the tests' prompttest.
const CtrlCHelperEnv = "RFHANDOFF_INTERNAL_CTRL_C_PID"

// helperEnabled: only a binary whose main calls ServeHelper can serve as
// the helper (a test binary would run its tests instead).
var helperEnabled atomic.Bool

var (
	kernel32              = windows.NewLazySystemDLL("kernel32.dll")
	procAttachConsole     = kernel32.NewProc("AttachConsole")
	procFreeConsole       = kernel32.NewProc("FreeConsole")
	procSetConsoleCtrlHdl = kernel32.NewProc("SetConsoleCtrlHandler")
)

// ServeHelper must be the first thing main does (it may be the helper).
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

// helperTimeout: under Wine on a loaded machine a Go binary's start alone
// has taken more than 5 s, and a helper stopped early ends the tool's job.
const helperTimeout = 30 * time.Second

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
