package faultkit

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/localfile"
)

// TempFiles lists every file under dir whose name holds ".tmp" (what an
// atomic write leaves when killed between create and rename).
func TempFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if strings.Contains(d.Name(), ".tmp") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("faultkit: walking %s: %v", dir, err)
	}
	return out
}

// LockHeld reports whether some process holds the lock file.
func LockHeld(t testing.TB, lockPath string) bool {
	t.Helper()
	held, _, err := localfile.Probe(lockPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("faultkit: probing %s: %v", lockPath, err)
	}
	return held
}

// CheckAuditChain verifies the audit log. An intact chain passes; so does
// one whose only fault is a torn last line (a process killed in the middle
// of an append). Anything else fails the test.
func CheckAuditChain(t testing.TB, path string) (torn bool) {
	t.Helper()
	_, err := exec.VerifyAuditLog(path)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return false
	}
	var ce *exec.ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("faultkit: verifying %s: %v", path, err)
	}
	data, rerr := os.ReadFile(path)
	if rerr != nil {
		t.Fatal(rerr)
	}
	lines := bytes.Count(data, []byte("\n"))
	lastTorn := len(data) > 0 && data[len(data)-1] != '\n'
	if !lastTorn || ce.Line != lines+1 {
		t.Fatalf("faultkit: audit chain of %s broken at line %d (of %d, torn tail %v): %v", path, ce.Line, lines, lastTorn, err)
	}
	return true
}

// Interrupted returns the start lines that have no end line.
func Interrupted(es []exec.Entry) []exec.Entry {
	ends := Ends(es)
	var out []exec.Entry
	for _, e := range es {
		if e.Event == exec.EventStart {
			if _, ok := ends[e.ID]; !ok {
				out = append(out, e)
			}
		}
	}
	return out
}

// ShowLine finds the line `audit show` printed for sequence number seq.
func ShowLine(show string, seq int64) string {
	re := regexp.MustCompile(`(?m)^.*  #` + strconv.FormatInt(seq, 10) + `  .*$`)
	return re.FindString(show)
}

// MirrorLeftovers lists what a killed process may leave of a side's mirror
// in the state directory (PROTOCOL#mirror) that the next rfhandoff run must
// have cleared: git's lock and temporary files inside a mirror, and a
// half-built or set-aside mirror beside it.
func MirrorLeftovers(t testing.TB, stateDir string) []string {
	t.Helper()
	var out []string
	beside, err := filepath.Glob(filepath.Join(stateDir, "mirror-*.git.*-*"))
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, beside...)
	mirrors, err := filepath.Glob(filepath.Join(stateDir, "mirror-*.git"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mirrors {
		err := filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			n := d.Name()
			if !d.IsDir() && (strings.HasSuffix(n, ".lock") || strings.HasPrefix(n, "tmp_")) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("faultkit: walking %s: %v", m, err)
		}
	}
	return out
}
