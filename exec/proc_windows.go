package exec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysProcAttr: every child starts suspended, to be in its Job Object
// before it can start anything (adopt resumes it). git gets no console
// (its ssh can never ask for a password); the HackRF tools get a hidden
// console of their own, to get a Ctrl-C that rfhandoff does not (interrupt).
func sysProcAttr(tool Tool) *syscall.SysProcAttr {
	if tool == Git {
		return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.DETACHED_PROCESS}
	}
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_CONSOLE, HideWindow: true}
}

// procTree is a child and everything it started: a Job Object that kills
// its processes when its last handle closes, also when rfhandoff dies
// (Windows' counterpart of Pdeathsig).
type procTree struct {
	mu      sync.Mutex
	p       *os.Process
	job     windows.Handle
	console bool
}

func (t *procTree) adopt(p *os.Process, a *syscall.SysProcAttr) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("setting kill-on-close on a job object: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("opening process %d: %w", p.Pid, err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("putting process %d in its job object: %w", p.Pid, err)
	}
	if err := resumeProcess(uint32(p.Pid)); err != nil {
		windows.TerminateJobObject(job, 1)
		windows.CloseHandle(job)
		return err
	}
	t.p, t.job, t.console = p, job, a.CreationFlags&windows.CREATE_NEW_CONSOLE != 0
	return nil
}

func resumeProcess(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("resuming process %d: %w", pid, err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err == nil {
			_, err = windows.ResumeThread(th)
			windows.CloseHandle(th)
		}
		if err != nil {
			return fmt.Errorf("resuming process %d: thread %d: %w", pid, te.ThreadID, err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("resuming process %d: no thread found", pid)
	}
	return nil
}

// interrupt is what Ctrl-C does: a CTRL_C_EVENT on a HackRF tool's console
// (ctrlc_windows.go), else the whole job ends. The helper runs without the
// lock: a start slow under load must not hold up a kill meanwhile.
func (t *procTree) interrupt() error {
	t.mu.Lock()
	live, console := t.job != 0, t.console
	t.mu.Unlock()
	if !live {
		return nil
	}
	if console && sendCtrlC(t.p.Pid) == nil {
		return nil
	}
	return t.kill()
}

func (t *procTree) kill() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job == 0 {
		return nil
	}
	return t.terminate()
}

func (t *procTree) terminate() error {
	err := windows.TerminateJobObject(t.job, 1)
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return os.ErrProcessDone
	}
	return err
}

// release closes the job: whatever the child left running in it ends now.
func (t *procTree) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job != 0 {
		windows.CloseHandle(t.job)
		t.job = 0
	}
}

// privateMode: no mode bits; the user's temp directory's ACL keeps it private.
func privateMode(os.FileMode) bool { return true }

// executable: Windows has no execute bit; a program is a .exe or .com.
func executable(path string, _ os.FileMode) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".exe" || ext == ".com"
}

func exeNames(name string) []string {
	if executable(name, 0) {
		return []string{name}
	}
	return []string{name + ".exe", name + ".com"}
}

// transientStartError: Wine's answer when the new process died before it ran.
func transientStartError(err error) bool { return errors.Is(err, windows.ERROR_INTERNAL_ERROR) }
