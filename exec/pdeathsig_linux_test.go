//go:build linux

package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A child started through the stack is interrupted when the process that
// started it is SIGKILLed: here the test starts an intermediate process
// (the helper in "parent" mode) which builds its own stack and starts a
// grandchild; the test kills the intermediate and the grandchild must
// receive SIGINT and end. In "parent-locked" mode the intermediate starts
// the grandchild from a goroutine that locked its OS thread and then
// exits, which ends that thread (the Go caveat on Pdeathsig): the
// grandchild must not be signalled then, only when the intermediate dies.
// platformHelper: the helper modes of the parent-death scenario.
func platformHelper(name, arg string) (int, bool) {
	switch name {
	case "deathwatch":
		return deathwatch(arg), true
	case "parent", "parent-locked":
		return parentOfDeathwatch(arg, name == "parent-locked"), true
	}
	return 0, false
}

func TestChildInterruptedWhenParentKilled(t *testing.T) {
	for _, mode := range []string{"parent", "parent-locked"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			s, _ := newStack(t, RoleProbe, os.Environ())
			dir := helperDirOf(t, s)
			parent, err := s.Start(context.Background(), Cmd{Tool: HackRFInfo, Args: []string{"-d", mode + "=" + dir}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = syscall.Kill(parent.Pid(), syscall.SIGKILL); _, _ = parent.Wait() })
			pidFile := filepath.Join(dir, "grandchild.pid")
			waitFor(t, "the intermediate to start the grandchild", func() bool {
				b, err := os.ReadFile(pidFile)
				return err == nil && bytes.HasSuffix(b, []byte("\n"))
			})
			pid, err := strconv.Atoi(strings.TrimSpace(string(must(os.ReadFile(pidFile)))))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			marker := filepath.Join(dir, "deathwatch.log")

			if mode == "parent-locked" {
				// The starting thread is gone (the intermediate waited for
				// that before writing the pid). Any parent-death signal it
				// caused was sent when it exited, so it is pending or
				// delivered before this SIGUSR1; the grandchild logs what
				// it gets in order.
				if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil || isZombie(pid) {
					t.Fatalf("grandchild %d gone after its starting thread exited: %v", pid, err)
				}
				waitFor(t, "the grandchild to log SIGUSR1", func() bool { return len(readLines(marker)) > 0 })
				if got := readLines(marker); got[0] != "SIGUSR1" {
					t.Fatalf("grandchild logged %q: it was signalled when the thread that started it exited", got)
				}
			}

			if err := syscall.Kill(parent.Pid(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_, _ = parent.Wait()
			waitFor(t, "the grandchild to end after its parent was killed", func() bool {
				return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) || isZombie(pid)
			})
			got := readLines(marker)
			if len(got) == 0 || got[len(got)-1] != "SIGINT" {
				t.Fatalf("grandchild logged %q, want SIGINT last", got)
			}
		})
	}
}

// deathwatch logs every SIGINT and SIGUSR1 to marker, in the order
// received, and ends after SIGINT (or after ten minutes, so a failed test
// leaves nothing running).
func deathwatch(marker string) int {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGUSR1)
	fmt.Println("ready")
	timeout := time.After(10 * time.Minute)
	for {
		select {
		case sig := <-ch:
			name := "SIGINT"
			if sig == syscall.SIGUSR1 {
				name = "SIGUSR1"
			}
			f, err := os.OpenFile(marker, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return 3
			}
			fmt.Fprintln(f, name)
			f.Close()
			if sig == syscall.SIGINT {
				return 0
			}
		case <-timeout:
			return 4
		}
	}
}

// parentOfDeathwatch is the intermediate: its own stack (the helper in dir
// as hackrf_info), a deathwatch grandchild, its pid written to
// dir/grandchild.pid once it is listening, then sleep until killed. With
// locked, the grandchild is started from a goroutine that locks its OS
// thread and exits, and the pid is written only after that thread is gone.
func parentOfDeathwatch(dir string, locked bool) int {
	// Keep the main goroutine on the main thread, so the locked goroutine
	// below runs on (and ends) another one: the runtime never ends the
	// main thread.
	runtime.LockOSThread()
	audit, err := OpenAuditLog(filepath.Join(dir, "intermediate-audit.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	s, err := New(Options{Role: RoleProbe, Audit: audit, Tools: map[Tool]string{HackRFInfo: filepath.Join(dir, "hackrf_info")}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	out := &lockedBuffer{}
	start := func() (Process, error) {
		return s.Start(context.Background(), Cmd{Tool: HackRFInfo, Stdout: out,
			Args: []string{"-d", "deathwatch=" + filepath.Join(dir, "deathwatch.log")}})
	}
	var p Process
	if locked {
		type started struct {
			p   Process
			tid int
			err error
		}
		ch := make(chan started, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			p, err := start()
			ch <- started{p, syscall.Gettid(), err}
		}()
		st := <-ch
		if st.err != nil {
			fmt.Fprintln(os.Stderr, st.err)
			return 3
		}
		p = st.p
		task := fmt.Sprintf("/proc/self/task/%d", st.tid)
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(task); errors.Is(err, os.ErrNotExist) {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintln(os.Stderr, "the locked thread did not end")
				return 3
			}
		}
	} else if p, err = start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	exited := make(chan struct{})
	go func() { _, _ = p.Wait(); close(exited) }()
	// Wait until it listens, or is gone (the test then says so).
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), "ready") && time.Now().Before(deadline); {
		select {
		case <-exited:
			deadline = time.Time{}
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "grandchild.pid"), []byte(fmt.Sprintln(p.Pid())), 0o600); err != nil {
		return 3
	}
	time.Sleep(10 * time.Minute)
	return 0
}

func readLines(path string) []string {
	b, _ := os.ReadFile(path)
	return strings.Fields(string(b))
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
