//go:build unix

package faultkit

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
)

// Alive reports whether pid exists and is not a zombie (a dead process
// its parent has not reaped yet).
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// "pid (comm) S ...": the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
