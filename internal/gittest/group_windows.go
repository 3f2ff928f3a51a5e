package gittest

import (
	"os"
	"path/filepath"
	"syscall"
)

// groupAttr: no process groups on Windows; killGroup ends the leader only.
func groupAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) { _ = p.Kill() }

// daemonCommand is git-daemon.exe itself, not `git daemon`: git.exe cannot
// exec on Windows, so `git daemon` starts git-daemon.exe as a child and
// waits, and killing git.exe (killGroup ends the leader only) left the
// daemon serving, holding its directory (TempDir's cleanup failed with a
// sharing violation) and, under Wine, the test binary's output pipe. It is
// in git's exec path, ../libexec/git-core from git.exe in Git for Windows'
// layout (mingw64/bin/git.exe; scripts/build-git-windows.sh stages the
// same); a git.exe without one falls back to `git daemon`.
func daemonCommand(git string) (string, []string) {
	d := filepath.Join(filepath.Dir(git), "..", "libexec", "git-core", "git-daemon.exe")
	if _, err := os.Stat(d); err != nil {
		return git, []string{git, "daemon"}
	}
	return d, []string{d}
}
