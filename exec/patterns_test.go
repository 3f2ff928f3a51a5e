package exec

import (
	"go/ast"
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

// patternHome is the package that compiles the protocol's value rules
// (TASK_ID, commit ID, digests, serial, fingerprint, timestamp).
const patternHome = "ident"

// compiled is one regexp.Compile/MustCompile call in product code: the
// string literals its argument is made of, and whether the argument is
// wholly one literal (a pattern built around ident.X.Inner() is not).
type compiled struct {
	pos    string // file:line below the module root
	pieces []string
	whole  bool
}

// literalPieces returns the string literals an expression concatenates,
// and whether it is nothing but literals.
func literalPieces(e ast.Expr) ([]string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return nil, false
		}
		s, err := strconv.Unquote(e.Value)
		return []string{s}, err == nil
	case *ast.ParenExpr:
		return literalPieces(e.X)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return nil, false
		}
		x, okX := literalPieces(e.X)
		y, okY := literalPieces(e.Y)
		return append(x, y...), okX && okY
	}
	return nil, false
}

// scanPatterns finds every regexp compile call in the non-test Go files
// below root (every platform's files; testdata and dot or underscore
// directories skipped).
func scanPatterns(root string) ([]compiled, error) {
	var found []compiled
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkgName := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "regexp" {
				pkgName = "regexp"
				if imp.Name != nil {
					pkgName = imp.Name.Name
				}
			}
		}
		if pkgName == "" {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != pkgName {
				return true
			}
			switch sel.Sel.Name {
			case "Compile", "MustCompile", "CompilePOSIX", "MustCompilePOSIX":
				pieces, whole := literalPieces(call.Args[0])
				pos := filepath.ToSlash(rel) + ":" + strconv.Itoa(fset.Position(call.Pos()).Line)
				found = append(found, compiled{pos: pos, pieces: pieces, whole: whole && len(pieces) > 0})
			}
			return true
		})
		return nil
	})
	return found, err
}

// judgePatterns returns a pattern compiled in more than one place (all
// places named), and a pattern outside home that restates one of home's
// rules inside a larger pattern instead of composing it (ident.X.Inner()).
func judgePatterns(found []compiled, home string) []string {
	var bad []string
	places := map[string][]string{}
	var rules []string
	for _, c := range found {
		if !c.whole {
			continue
		}
		text := strings.Join(c.pieces, "")
		places[text] = append(places[text], c.pos)
		if strings.HasPrefix(c.pos, home+"/") {
			rules = append(rules, text)
		}
	}
	for text, ps := range places {
		if len(ps) > 1 {
			bad = append(bad, "pattern "+strconv.Quote(text)+" is compiled in "+strings.Join(ps, " and ")+
				"; give it one home (a rule of the protocol's values belongs in "+home+")")
		}
	}
	for _, c := range found {
		if strings.HasPrefix(c.pos, home+"/") {
			continue
		}
		for _, p := range c.pieces {
			for _, r := range rules {
				inner := strings.TrimSuffix(strings.TrimPrefix(r, "^"), "$")
				if p != r && strings.Contains(p, inner) {
					bad = append(bad, c.pos+" restates "+home+"'s rule "+strconv.Quote(r)+" in "+strconv.Quote(p)+
						"; build the larger pattern around its Inner()")
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestPatternsCompiledOnce holds each pattern, and each protocol value
// rule above all, to one place in product code (docs/DESIGN.md, "Each
// protocol pattern is compiled in package ident").
func TestPatternsCompiledOnce(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	found, err := scanPatterns(root)
	if err != nil {
		t.Fatal(err)
	}
	homes := 0
	for _, c := range found {
		if strings.HasPrefix(c.pos, patternHome+"/") && c.whole {
			homes++
		}
	}
	// A scan that saw too little proves nothing.
	if len(found) < 50 || homes < 7 {
		t.Fatalf("found %d compiled patterns, %d in %s; the scan is broken", len(found), homes, patternHome)
	}
	if bad := judgePatterns(found, patternHome); len(bad) > 0 {
		t.Errorf("patterns without one home:\n  %s", strings.Join(bad, "\n  "))
	}
}

// The judge itself refuses what it must: the same literal in two places,
// a home rule restated inside a larger pattern; it lets a composed one
// and an unrelated one pass.
func TestPatternsRefuseRestatedRules(t *testing.T) {
	found := []compiled{
		{pos: "ident/ident.go:5", pieces: []string{`^[A-Z0-9]{3}$`}, whole: true},
		{pos: "state/rx.go:9", pieces: []string{`^[A-Z0-9]{3}$`}, whole: true},                   // the rule again
		{pos: "txwatch/record.go:7", pieces: []string{`^x-[A-Z0-9]{3}\.json$`}, whole: true},     // restated inside
		{pos: "txwatch/store.go:3", pieces: []string{`^x-(`, `)\.json$`}, whole: false},          // composed: fine
		{pos: "gitcli/push.go:1", pieces: []string{`^remote: (.*)$`}, whole: true},               // unrelated: fine
		{pos: "hackrfcli/info.go:2", pieces: []string{`^Board ID: (\d+)$`}, whole: true},         // twice...
		{pos: "hackrfcli/transfer.go:8", pieces: []string{`^Board ID: `, `(\d+)$`}, whole: true}, // ...once as a sum
	}
	got := judgePatterns(found, "ident")
	want := []string{
		`pattern "^Board ID: (\\d+)$" is compiled in hackrfcli/info.go:2 and hackrfcli/transfer.go:8; give it one home (a rule of the protocol's values belongs in ident)`,
		`pattern "^[A-Z0-9]{3}$" is compiled in ident/ident.go:5 and state/rx.go:9; give it one home (a rule of the protocol's values belongs in ident)`,
		`txwatch/record.go:7 restates ident's rule "^[A-Z0-9]{3}$" in "^x-[A-Z0-9]{3}\\.json$"; build the larger pattern around its Inner()`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("judgePatterns =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
