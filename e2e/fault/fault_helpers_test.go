package fault

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
)

// readFile is path's content; the test fails when it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// countRecords counts authorization records (JSON files that are not
// outcomes or markers) in dir.
func countRecords(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".outcome.json") && !strings.HasPrefix(name, ".") {
			n++
		}
	}
	return n
}

// commitsBetween counts the commits in old..new on the lab's remote.
func commitsBetween(t *testing.T, lab *faultkit.Lab, old, new string) int {
	t.Helper()
	out := strings.TrimSpace(gittest.Git(t, lab.R, lab.Remote.Dir, "log", "--format=%H", old+".."+new))
	if out == "" {
		return 0
	}
	return len(strings.Split(out, "\n"))
}

// tail is the last n bytes of a file, quoted, for failure messages.
func tail(t *testing.T, path string, n int) string {
	t.Helper()
	b := []byte(readFile(t, path))
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return fmt.Sprintf("%q", b)
}
