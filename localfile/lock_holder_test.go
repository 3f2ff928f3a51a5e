package localfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// AcquireAs records the holder beside the PID; a refused Acquire names it.
func TestLockNamesItsHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rx_agent.lock")
	l, err := AcquireAs(path, "rx approve")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	_, err = Acquire(path)
	var le *LockedError
	if !errors.As(err, &le) || le.Holder != "rx approve" || le.PID != os.Getpid() {
		t.Fatalf("second Acquire = %v (%+v), want *LockedError naming rx approve", err, le)
	}
	if want := fmt.Sprintf("rx approve (process %d)", os.Getpid()); le.who() != want || !strings.Contains(err.Error(), want) {
		t.Errorf("Who() = %q, error %q; want %q", le.who(), err, want)
	}
	if held, pid, err := Probe(path); err != nil || !held || pid != os.Getpid() {
		t.Errorf("Probe = %v, %d, %v", held, pid, err)
	}
}

func TestLockHolderIsAPlainName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rx_agent.lock")
	for _, bad := range []string{"rx\x1b[2Japprove", "RX APPROVE", strings.Repeat("a", 41), "rx\napprove"} {
		if l, err := AcquireAs(path, bad); err == nil {
			l.Release()
			t.Errorf("AcquireAs accepted holder %q", bad)
		}
	}
	// What another program wrote into the file never reaches a message
	// unless it is a plain name; an older rfhandoff's bare PID still reads.
	for content, want := range map[string][2]any{
		"42 rx watch\n":                 {42, "rx watch"},
		"42\n":                          {42, ""},
		"42 rx\x1b[2Jwatch\n":           {42, ""},
		"x rx watch\n":                  {0, ""},
		"42 " + strings.Repeat("a", 90): {0, ""},
	} {
		if err := os.WriteFile(pidPath(path), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if pid, holder := readHolder(path); pid != want[0] || holder != want[1] {
			t.Errorf("readHolder(%q) = %d, %q; want %v, %q", content, pid, holder, want[0], want[1])
		}
	}
}
