package hackrfcli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// transcript is one captured (or format-string-assembled) tool run from
// testdata/transcripts: a txtar whose comment holds "key: value" lines
// (command, exit, version, source) and whose files are stdout and stderr.
type transcript struct {
	Name           string
	Command        string
	ExitCode       int
	Version        string
	Stdout, Stderr []byte
}

func loadTranscript(t testing.TB, rel string) transcript {
	t.Helper()
	path := filepath.Join("testdata", "transcripts", rel)
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	tr := transcript{Name: rel}
	meta := map[string]string{}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			meta[k] = v
		}
	}
	tr.Command, tr.Version = meta["command"], meta["version"]
	if tr.ExitCode, err = strconv.Atoi(meta["exit"]); err != nil {
		t.Fatalf("%s: bad exit line %q", path, meta["exit"])
	}
	seen := map[string]bool{}
	for _, f := range a.Files {
		seen[f.Name] = true
		switch f.Name {
		case "stdout":
			tr.Stdout = f.Data
		case "stderr":
			tr.Stderr = f.Data
		default:
			t.Fatalf("%s: unexpected file %q", path, f.Name)
		}
	}
	if !seen["stdout"] || !seen["stderr"] {
		t.Fatalf("%s: needs both stdout and stderr sections", path)
	}
	return tr
}

// allTranscripts lists the transcripts of one tool, so a new file cannot
// sit untested: every table test checks it covers all of them.
func allTranscripts(t testing.TB, tool string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join("testdata", "transcripts", tool, "*.txtar"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no transcripts for %s: %v", tool, err)
	}
	var out []string
	for _, p := range m {
		out = append(out, tool+"/"+filepath.Base(p)) // the tables' keys
	}
	return out
}

func checkCoverage(t *testing.T, tool string, tested map[string]bool) {
	t.Helper()
	for _, name := range allTranscripts(t, tool) {
		if !tested[name] {
			t.Errorf("transcript %s has no table entry", name)
		}
	}
}
