package hacksim

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedMakesCapturesDiffer: two captures without HACKRF_SIM_SEED (two
// runs into one file name, or two files as two nodes write) differ; with
// the same seed they are the same bytes; a malformed seed exits 2 before
// anything runs.
func TestSeedMakesCapturesDiffer(t *testing.T) {
	dir := t.TempDir()
	capture := func(name, seed string) [32]byte {
		t.Helper()
		path := filepath.Join(dir, name)
		env := func(k string) string {
			switch k {
			case "HACKRF_SIM":
				return "fast"
			case SeedEnv:
				return seed
			}
			return ""
		}
		var out, errb bytes.Buffer
		if code := Main("hackrf_transfer", []string{"-r", path, "-s", "2000000", "-n", "300000"}, env, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return sha256.Sum256(data)
	}
	if capture("a", "") == capture("b", "") {
		t.Error("two unseeded captures are the same bytes")
	}
	// Two runs into the same file name (the same task again, on another
	// day) differ too: the seed is the run's, not the path's.
	first := capture("same", "")
	if err := os.Remove(filepath.Join(dir, "same")); err != nil {
		t.Fatal(err)
	}
	if capture("same", "") == first {
		t.Error("two unseeded runs into the same file name are the same bytes")
	}
	if capture("c", "42") != capture("d", "42") {
		t.Error("two captures with HACKRF_SIM_SEED=42 differ")
	}
	var errb bytes.Buffer
	env := func(k string) string {
		if k == SeedEnv {
			return "-1"
		}
		return ""
	}
	if code := Main("hackrf_transfer", []string{"-r", filepath.Join(dir, "e"), "-n", "10"}, env, &bytes.Buffer{}, &errb); code != 2 ||
		!strings.Contains(errb.String(), "HACKRF_SIM_SEED=\"-1\"") {
		t.Errorf("bad seed: exit %d, %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "e")); !os.IsNotExist(err) {
		t.Errorf("a bad seed wrote a file: %v", err)
	}
}
