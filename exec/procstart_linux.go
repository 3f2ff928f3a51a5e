package exec

import (
	"bytes"
	"errors"
	"os"
	"strconv"
)

func processStart(pid int) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	start, err := parseStatStart(data)
	return start, err == nil
}

// parseStatStart is field 22 (starttime) of a /proc/<pid>/stat line,
// counted from the last ')': the command name may hold spaces and ')'.
func parseStatStart(data []byte) (int64, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("no ')' after the command name")
	}
	f := bytes.Fields(data[i+1:])
	// f[0] is field 3 (state); starttime is field 22.
	if len(f) < 20 {
		return 0, errors.New("fewer than 22 fields")
	}
	v, err := strconv.ParseInt(string(f[19]), 10, 64)
	if err != nil || v < 0 {
		return 0, errors.New("starttime is not a non-negative integer")
	}
	return v, nil
}
