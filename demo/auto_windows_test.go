package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// demo --auto is refused at once on Windows, before any sandbox exists.
func TestAutoRefusedOnWindows(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMP", tmp)
	t.Setenv("TEMP", tmp)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = Run(t.Context(), Options{Exe: exe, Auto: true, Out: &out, Environ: os.Environ()})
	if err == nil || !strings.Contains(err.Error(), "not available on Windows") || !strings.Contains(err.Error(), "pseudo-terminal") {
		t.Fatalf("demo --auto on Windows: %v, want a refusal naming the missing pseudo-terminal", err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
		t.Errorf("the refused demo created %v", left)
	}
	if out.Len() > 0 {
		t.Errorf("the refused demo printed %q", out.String())
	}
}
