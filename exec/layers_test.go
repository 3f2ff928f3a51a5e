package exec

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The module's layers, lowest first. A package may import the packages of
// lower layers; an import within a layer must be listed in sameLayer. Test
// helper packages sit in the layer of what they serve; test files may also
// import any test helper and the tools testOnly names. A new package must
// be placed here on purpose: the test fails on one it does not know.
var layers = [][]string{
	// leaves: no project imports
	{"errlist", "strictjson", "localfile", "localfile/private", "backoff", "hiddentext", "gitcli/gitname", "gitcli/sshsig", "captureplan", "ident", "node", "gate", "alignment", "internal/testrun", "internal/testbin", "internal/clocktest", "internal/chronystandin"},
	// infrastructure: processes, files, git, the HackRF tools
	{"exec", "state", "gitcli", "hackrfcli", "hacksim", "quicklook", "hostclock", "internal/gittest", "internal/quicklooktest"},
	// domain: what a task, a result and a policy are, and reading them
	{"config", "task", "gate/txgate", "result", "prompt", "taskfetch", "resultfetch", "mirror", "notify", "sigmf", "internal/prompttest", "internal/tasktest", "internal/sigmftest"},
	// workflows: the two sides' commands
	{"rxside", "txwatch", "transmit", "capture", "publish", "tasknew", "demo", "doctor", "internal/rxtest", "internal/txtest", "internal/publishtest", "internal/faultkit", "internal/e2ekit"},
	// commands and the end-to-end suites
	{"", "e2e", "e2e/fault", "e2e/trust", "e2e/ssh", "e2e/security", "e2e/demorun", "e2e/nodes"},
}

// sameLayer lists the imports allowed within a layer, importer first.
var sameLayer = map[string][]string{
	"localfile/private":    {"errlist", "localfile"},
	"internal/clocktest":   {"internal/chronystandin"},
	"gitcli/sshsig":        {"gitcli/gitname"},
	"gitcli":               {"exec"},
	"hackrfcli":            {"exec"},
	"hostclock":            {"exec"},
	"hacksim":              {"hackrfcli"},
	"internal/gittest":     {"exec"},
	"gate/txgate":          {"config", "result"},
	"taskfetch":            {"config", "task"},
	"resultfetch":          {"config", "result", "task", "taskfetch"},
	"sigmf":                {"result"},
	"mirror":               {"config"},
	"notify":               {"config", "task"},
	"internal/tasktest":    {"config", "result", "task"},
	"capture":              {"publish"},
	"demo":                 {"txwatch"},
	"transmit":             {"txwatch"},
	"internal/publishtest": {"publish"},
	"internal/txtest":      {"internal/faultkit"},
	"internal/e2ekit":      {"txwatch"},
}

// testOnly lists what test files may import besides the rules above.
var testOnly = map[string][]string{
	"hackrfcli": {"hacksim"}, // the parsers are tested against the simulator's output
}

// testHelpers are imported by tests of any layer.
var testHelpers = []string{"internal/testrun", "internal/testbin", "internal/clocktest", "internal/gittest", "internal/quicklooktest", "internal/prompttest", "internal/tasktest", "internal/sigmftest",
	"internal/rxtest", "internal/txtest", "internal/publishtest", "internal/faultkit", "internal/e2ekit"}

// importEdge is one project import of one file.
type importEdge struct {
	file, from, to string
	external, test bool
}

// scanImports reads the imports of every Go file below root, tests and
// every platform's files included (parsing sees them all, which `go list`
// under one GOOS would not), and the packages that hold files. A project
// import's to is its path inside module; any other's is its whole path,
// marked by external.
func scanImports(root, module string) (edges []importEdge, pkgs map[string]bool, files int, err error) {
	pkgs = map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
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
		from := filepath.ToSlash(filepath.Dir(rel))
		if from == "." {
			from = ""
		}
		pkgs[from] = true
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			to, ok := strings.CutPrefix(p, module+"/")
			edges = append(edges, importEdge{file: filepath.ToSlash(rel), from: from, to: to, external: !ok, test: strings.HasSuffix(name, "_test.go")})
		}
		return nil
	})
	return edges, pkgs, files, err
}

// judgeLayers returns the edges the table does not allow and the packages
// it does not place (or places but the tree lacks).
func judgeLayers(edges []importEdge, pkgs map[string]bool) (bad, unknown []string) {
	layerOf := map[string]int{}
	for i, ps := range layers {
		for _, p := range ps {
			layerOf[p] = i
		}
	}
	allowed := func(e importEdge) bool {
		if e.from == e.to {
			return true
		}
		lf, lt := layerOf[e.from], layerOf[e.to]
		switch {
		case lt < lf:
			return true
		case lt == lf && slices.Contains(sameLayer[e.from], e.to):
			return true
		}
		return e.test && (slices.Contains(testHelpers, e.to) || slices.Contains(testOnly[e.from], e.to))
	}
	for p := range pkgs {
		if _, ok := layerOf[p]; !ok {
			unknown = append(unknown, p)
		}
	}
	for p := range layerOf {
		if !pkgs[p] {
			unknown = append(unknown, p+" (in the table, not in the tree)")
		}
	}
	for _, e := range edges {
		if e.external {
			continue
		}
		_, okFrom := layerOf[e.from]
		_, okTo := layerOf[e.to]
		if okFrom && okTo && !allowed(e) {
			bad = append(bad, e.file+" imports "+e.to)
		}
	}
	sort.Strings(unknown)
	return bad, unknown
}

// TestLayers holds the module to the table above.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	edges, pkgs, files, err := scanImports(root, "rfhandoff")
	if err != nil {
		t.Fatal(err)
	}
	// A scan that saw too little proves nothing.
	if files < 300 || !pkgs["exec"] || !pkgs["e2e"] || len(edges) < 300 {
		t.Fatalf("scanned %d Go files, %d imports; the scan is broken", files, len(edges))
	}
	bad, unknown := judgeLayers(edges, pkgs)
	if len(unknown) > 0 {
		t.Errorf("packages the layer table does not place (add them to exec/layers_test.go on purpose):\n  %s", strings.Join(unknown, "\n  "))
	}
	if len(bad) > 0 {
		t.Errorf("imports against the layers (a lower layer never imports a higher one; docs/DESIGN.md):\n  %s", strings.Join(bad, "\n  "))
	}
}

// The judge itself refuses what it must: an upward edge, an unlisted
// same-layer edge, a test helper in production code, an unplaced package.
func TestLayersRefuseWrongEdges(t *testing.T) {
	pkgs := map[string]bool{"newpkg": true}
	for _, ps := range layers {
		for _, p := range ps {
			pkgs[p] = true
		}
	}
	edges := []importEdge{
		{file: "gitcli/cause.go", from: "gitcli", to: "task"},                       // upward
		{file: "gitcli/clone_windows.go", from: "gitcli", to: "state"},              // same layer, unlisted
		{file: "exec/x.go", from: "exec", to: "internal/faultkit"},                  // a helper in production
		{file: "task/parse.go", from: "task", to: "hiddentext"},                     // downward: fine
		{file: "exec/x_test.go", from: "exec", to: "internal/faultkit", test: true}, // a helper in a test: fine
		{file: "hackrfcli/p_test.go", from: "hackrfcli", to: "hacksim", test: true}, // testOnly: fine
		{file: "hackrfcli/p.go", from: "hackrfcli", to: "hacksim"},                  // but not in production
	}
	bad, unknown := judgeLayers(edges, pkgs)
	want := []string{"gitcli/cause.go imports task", "gitcli/clone_windows.go imports state", "exec/x.go imports internal/faultkit", "hackrfcli/p.go imports hacksim"}
	if !slices.Equal(bad, want) {
		t.Errorf("bad = %q, want %q", bad, want)
	}
	if !slices.Equal(unknown, []string{"newpkg"}) {
		t.Errorf("unknown = %q, want [newpkg]", unknown)
	}
}
