//go:build unix

package gitcli

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether pid exists (EPERM: it exists, not ours).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func ownedByUs(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(s.Uid) == os.Getuid()
}
