//go:build linux

package exec

import (
	osexec "os/exec"
	"runtime"
	"sync"
	"syscall"
)

// Children get SIGINT when rfhandoff dies, however it dies: no
// hackrf_transfer or git push outlives its watcher. SIGINT, not SIGKILL, so
// hackrf_transfer flushes its file and git cleans up its locks; a child
// that ignores it is capture's recovery's.
//
// Linux sends it when the *thread* that forked the child exits
// (golang.org/issue/27505), so every child is forked on one thread locked
// for the life of the process (golang.org/issue/14592 may end idle ones).
// Serialising the forks costs milliseconds.
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

// spawner never unlocks and never returns.
func spawner(ready chan<- struct{}) {
	runtime.LockOSThread()
	close(ready)
	for f := range spawnReq {
		f()
	}
}
