package localfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tempsIn lists WriteFileAtomic temp files in dir.
func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var temps []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			temps = append(temps, e.Name())
		}
	}
	return temps
}

func TestWriteFileAtomicReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := WriteFileAtomic(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Fatalf("content = %q, %v; want new", got, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if modesKept && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
	}
	if temps := tempsIn(t, dir); len(temps) != 0 {
		t.Errorf("temp files left: %v", temps)
	}
}

func TestWriteFileAtomicCleansUpOnFailure(t *testing.T) {
	dir := t.TempDir()
	// The rename fails: the target is a non-empty directory.
	target := filepath.Join(dir, "s.json")
	if err := os.MkdirAll(filepath.Join(target, "keep"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(target, []byte("new"), 0o600); err == nil {
		t.Fatal("writing over a non-empty directory succeeded")
	} else if !strings.Contains(err.Error(), target) {
		t.Errorf("error %q does not name the file", err)
	}
	if temps := tempsIn(t, dir); len(temps) != 0 {
		t.Errorf("temp files left after a failed write: %v", temps)
	}
	if _, err := os.Stat(filepath.Join(target, "keep")); err != nil {
		t.Errorf("failed write disturbed the target: %v", err)
	}

	// The directory is missing: nothing is created anywhere.
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "s.json"), []byte("x"), 0o600); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

func TestWriteFileAtomicUnwritableDirectory(t *testing.T) {
	if !modesKept {
		t.Skip("no permission bits on Windows: a directory cannot be made read-only with chmod")
	}
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := WriteFileAtomic(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	if err := WriteFileAtomic(path, []byte("new"), 0o600); err == nil {
		t.Fatal("write into a read-only directory succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("content = %q after a failed write, want old", got)
	}
	if temps := tempsIn(t, dir); len(temps) != 0 {
		t.Errorf("temp files left: %v", temps)
	}
}

// TestWriteFileAtomicSurvivesSIGKILL kills a writer looping over
// WriteFileAtomic at arbitrary moments: the file always parses as one complete
// version, and CleanTemps removes what the killed writer left.
func TestWriteFileAtomicSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	for round := 0; round < 5; round++ {
		h := startHelper(t, "write-loop:"+path, "writing")
		if round == 0 { // make sure at least one version exists
			waitFor(t, func() bool { _, err := os.Stat(path); return err == nil })
		}
		// Let it write for a while; the exact moment of the kill is what varies.
		time.Sleep(time.Duration(5+round*15) * time.Millisecond)
		if err := h.proc.Kill(); err != nil {
			t.Fatal(err)
		}
		h.proc.Wait()

		var got struct {
			Seq int    `json:"seq"`
			Pad string `json:"pad"`
		}
		if err := readJSON(path, &got); err != nil {
			t.Fatalf("round %d: state unreadable after SIGKILL: %v", round, err)
		}
		if want := payload(got.Seq)["pad"]; got.Pad != want {
			t.Fatalf("round %d: seq %d has a torn pad of %d bytes", round, got.Seq, len(got.Pad))
		}
		removed, err := CleanTemps(path)
		if err != nil {
			t.Fatal(err)
		}
		if temps := tempsIn(t, dir); len(temps) != 0 {
			t.Fatalf("round %d: CleanTemps removed %v but left %v", round, removed, temps)
		}
	}
}

// waitFor polls cond until it holds, failing after a generous deadline.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 60s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCleanTempsOnlyTouchesItsOwn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rx_agent_state.json")
	for _, name := range []string{".rx_agent_state.json.tmp-123", ".tx_agent_state.json.tmp-9", "rx_agent_state.json", "other"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := CleanTemps(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || filepath.Base(removed[0]) != ".rx_agent_state.json.tmp-123" {
		t.Errorf("removed %v", removed)
	}
	for _, name := range []string{".tx_agent_state.json.tmp-9", "rx_agent_state.json", "other"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s removed: %v", name, err)
		}
	}
	if removed, err := CleanTemps(filepath.Join(dir, "missing", "x.json")); err != nil || removed != nil {
		t.Errorf("CleanTemps in a missing dir = %v, %v", removed, err)
	}
}

// readJSON is a test's read of a JSON file written with WriteFileAtomic.
func readJSON(path string, v any) error {
	data, err := ReadRegular(path, 1<<20)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
