//go:build unix

package gitcli

import (
	"os"
	"syscall"
)

func ownedByUs(st os.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(s.Uid) == os.Getuid()
}
