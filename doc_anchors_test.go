package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Code cites the documents by anchor (PROTOCOL#several-nodes), never by a
// section number a new section would shift (issue 33). Every anchor cited
// in a Go file, config.toml.example, a script or a testscript must exist in
// its document, and no numbered citation may come back.
func TestDocAnchorsCitedExist(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorRE := regexp.MustCompile(`<a id="([a-z0-9-]+)"></a>`)
	headingRE := regexp.MustCompile(`(?m)^#{2,4} (.+)$`)
	for _, doc := range []string{"PROTOCOL", "OPERATIONS", "DESIGN", "TESTING"} {
		data, err := os.ReadFile(filepath.Join("docs", doc+".md"))
		if err != nil {
			t.Fatal(err)
		}
		anchors[doc] = map[string]bool{}
		for _, m := range anchorRE.FindAllStringSubmatch(string(data), -1) {
			anchors[doc][m[1]] = true
		}
		for _, m := range headingRE.FindAllStringSubmatch(string(data), -1) {
			anchors[doc][githubSlug(m[1])] = true
		}
	}

	citeRE := regexp.MustCompile(`\b(PROTOCOL|OPERATIONS|DESIGN|TESTING)(?:\.md)?#([A-Za-z0-9-]+)`)
	numberedRE := regexp.MustCompile(`(PROTOCOL|OPERATIONS)(\.md)? §[0-9]`)
	var bad []string
	cited := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (strings.HasPrefix(n, ".") || n == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		if !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".txtar") || strings.HasSuffix(path, ".sh") ||
			strings.HasSuffix(path, ".service") || strings.HasSuffix(path, ".json") || path == "config.toml.example") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		if path == "doc_anchors_test.go" {
			return nil // its own patterns
		}
		for _, m := range citeRE.FindAllStringSubmatch(text, -1) {
			cited++
			if !anchors[m[1]][m[2]] {
				bad = append(bad, path+": "+m[0]+" names no anchor in docs/"+m[1]+".md")
			}
		}
		for _, m := range numberedRE.FindAllString(text, -1) {
			bad = append(bad, path+": "+m+" is a numbered citation; cite the anchor (docs/PROTOCOL.md <a id=...>)")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Too few citations found would prove nothing about the code's.
	if cited < 150 {
		t.Fatalf("found %d anchor citations; expected the code's 180 or so: the walk read too little", cited)
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d citations that name no anchor:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
}

// githubSlug is the anchor GitHub gives a heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func githubSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGithubSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Current figures":                    "current-figures",
		"MAIN PC: `tx watch`, authorization": "main-pc-tx-watch-authorization",
		"The result (RX_RESULT.json)":        "the-result-rx_resultjson",
	} {
		if got := githubSlug(in); got != want {
			t.Errorf("githubSlug(%q) = %q, want %q", in, got, want)
		}
	}
}
