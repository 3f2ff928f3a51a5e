package exec

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Package exec is the one subprocess seam: every child goes through the
// allowlist, the built environment and the audit log. This keeps it so for
// every Go file of the module, test files and every platform's build-tagged
// files included (parsing files directly sees them all, which `go list`
// under one GOOS would not). Tests that need a child process use
// os.StartProcess, as prompttest, faultkit and state's helpers do.
func TestOnlyExecImportsOSExec(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above package exec: %v", err)
	}
	var inExec, outside []string
	files := 0
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// What the go tool ignores: testdata, hidden and _ directories.
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os/exec" {
				if filepath.Dir(path) == filepath.Join(root, "exec") {
					inExec = append(inExec, rel)
				} else {
					outside = append(outside, rel)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
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
