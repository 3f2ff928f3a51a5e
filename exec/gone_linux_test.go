package exec

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// isZombie reads the process state from /proc/<pid>/stat (the field after
// the parenthesised command name, which may itself hold spaces). A pid
// without a stat file is no process at all.
func isZombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] == "Z"
}
