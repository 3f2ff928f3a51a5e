package hiddentext

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLeaf: the package imports nothing of the project (test files and
// every platform's files included), so that every layer, gitcli among
// them, can use the one sanitizer without depending upwards.
func TestLeaf(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "rfhandoff" || strings.HasPrefix(p, "rfhandoff/") {
				t.Errorf("%s imports %s: hiddentext must stay a leaf", name, p)
			}
		}
	}
}
