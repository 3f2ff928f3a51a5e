package exec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Package exec is the one subprocess seam: every child goes through the
// allowlist, the built environment and the audit log. This keeps it so for
// every Go file of the module, test files and every platform's build-tagged
// files included (parsing files directly sees them all, which `go list`
// under one GOOS would not). Tests that need a child process use
// os.StartProcess, as prompttest, faultkit and localfile's helpers do.
func TestOnlyExecImportsOSExec(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above package exec: %v", err)
	}
	edges, _, files, err := scanImports(root, "rfhandoff")
	if err != nil {
		t.Fatal(err)
	}
	var inExec, outside []string
	for _, e := range edges {
		if !e.external || e.to != "os/exec" {
			continue
		}
		if e.from == "exec" {
			inExec = append(inExec, e.file)
		} else {
			outside = append(outside, e.file)
		}
	}
	// The scan must have seen the module and the seam's own import, or an
	// empty result would prove nothing.
	if files < 100 || !slices.Contains(inExec, "exec/osrunner.go") {
		t.Fatalf("scanned %d Go files, os/exec importers in exec/: %v; the scan is broken", files, inExec)
	}
	if len(outside) > 0 {
		t.Errorf("only package exec may import os/exec (children must go through exec.Runner); imported by:\n  %s",
			strings.Join(outside, "\n  "))
	}
}
