//go:build linux

package exec

import (
	osexec "os/exec"
	"runtime"
	"sync"
	"syscall"
)

// Children get SIGINT when rfhandoff dies, however it dies (SIGKILL
// included): a capture's hackrf_transfer, a transmission's, or a git push
// must not outlive the process that watches it. SIGINT, not SIGKILL, so
// that hackrf_transfer ends as it does on Ctrl-C (its exit sequence, the
// file flushed) and git cleans up its lock files; a child that ignores it is
// dealt with by the next rx capture or rx watch (capture's recovery).
//
// Linux sends a parent-death signal when the *thread* that forked the
// child exits, not when the process does (golang.org/issue/27505). The Go
// runtime ends an OS thread only when a goroutine that locked it
// (runtime.LockOSThread) exits without unlocking it; idle threads are kept
// today, but that is an implementation detail (golang.org/issue/14592 asks
// to end them). So every child is forked on one thread kept for the whole
// life of the process: a goroutine that locks its thread and never
// returns. A caller on a goroutine that locked its own thread and later
// exits can then no longer take its children's signal with it, and no
// future runtime change can either. Starting a process is a fork and an
// exec, milliseconds, so serialising them costs nothing that matters.

func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGINT }

var (
	spawnOnce sync.Once
	spawnReq  chan func()
)

// startOnStableThread runs cmd.Start on the spawner thread.
func startOnStableThread(cmd *osexec.Cmd) error {
	spawnOnce.Do(func() {
		spawnReq = make(chan func())
		ready := make(chan struct{})
		go spawner(ready)
		<-ready
	})
	done := make(chan error, 1)
	spawnReq <- func() { done <- cmd.Start() }
	return <-done
}

// spawner owns the thread every child is forked from. It never unlocks
// and never returns, so the thread lives as long as the process.
func spawner(ready chan<- struct{}) {
	runtime.LockOSThread()
	close(ready)
	for f := range spawnReq {
		f()
	}
}
