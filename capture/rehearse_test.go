package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/exec"
	"rfhandoff/internal/publishtest"
)

// TestCaptureRehearsalRefusesAPlantedFile: whoever can write the capture
// directory plants the rehearsal's file, or a symlink there to a file of
// the operator's, before a scheduled capture. The rehearsal never writes
// through it: the capture is refused naming the file, no tool starts,
// nothing is published, the planted file and its target are untouched,
// and the capture's reserved file is removed.
func TestCaptureRehearsalRefusesAPlantedFile(t *testing.T) {
	t.Parallel()
	plants := map[string]func(path, target string) error{
		"a file": func(path, _ string) error { return os.WriteFile(path, []byte("planted"), 0o644) },
		"a symlink": func(path, target string) error {
			if err := os.Symlink(target, path); err != nil {
				t.Skipf("no symlinks here: %v", err)
			}
			return nil
		},
	}
	for name, plant := range plants {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w, _ := scheduledWorld(t, captureplan.SyncPPS, 20*time.Second, nil, simEnv("HACKRF_SIM_TRIGGER=pps"))
			dir := filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			data := filepath.Join(dir, publishtest.TaskID+DataSuffix)
			target := filepath.Join(t.TempDir(), "operator-notes.txt")
			if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := plant(data+rehearsalSuffix, target); err != nil {
				t.Fatal(err)
			}
			refs := w.Refs(t)
			_, err := w.run(t, t.Context(), opts())
			if err == nil || !strings.Contains(err.Error(), data+rehearsalSuffix) {
				t.Fatalf("err = %v, want the planted %s named", err, data+rehearsalSuffix)
			}
			if n := len(w.auditStarts(t, exec.HackRFTransfer)); n != 0 {
				t.Errorf("hackrf_transfer started %d times", n)
			}
			if w.Refs(t) != refs {
				t.Error("something was published")
			}
			if b, _ := os.ReadFile(target); string(b) != "keep me" {
				t.Errorf("the symlink's target was written: %q", b)
			}
			if _, err := os.Lstat(data + rehearsalSuffix); err != nil {
				t.Errorf("the planted file was removed: %v (it is not rfhandoff's)", err)
			}
			if _, err := os.Stat(data); !os.IsNotExist(err) {
				t.Errorf("the capture's reserved file is left: %v", err)
			}
		})
	}
}
