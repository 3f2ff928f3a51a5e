package result

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestRenderMarkdownGolden(t *testing.T) {
	for _, c := range []struct {
		json, md string
		extra    []string
	}{
		{"ready.json", "ready.md", nil},
		{"complete.json", "complete.md", nil},
		{"complete.json", "complete_notes.md", []string{
			"Burst detected from 40.1 s to 49.9 s, 23.4 dB above the noise floor.\n",
			"  ",
			"Second note | with a pipe.",
		}},
	} {
		t.Run(c.md, func(t *testing.T) {
			r, err := Decode(readExample(t, c.json), Options{})
			if err != nil {
				t.Fatal(err)
			}
			md := RenderMarkdown(r, c.extra...)
			golden(t, c.md, md)
			// Deterministic: the same result renders to the same bytes,
			// also after an Encode/Decode round trip.
			out, err := Encode(r)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := Decode(out, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(RenderMarkdown(r2, c.extra...), md) {
				t.Error("rendering is not deterministic")
			}
			if len(md) > MaxBytes {
				t.Errorf("RX_RESULT.md is %d bytes", len(md))
			}
		})
	}
}

func TestRenderMarkdownTableRows(t *testing.T) {
	r, err := Decode(readExample(t, "complete.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := string(RenderMarkdown(r))
	for _, k := range requiredKeys() {
		if strings.Count(md, "| `"+k+"` | ") != 1 {
			t.Errorf("key %s is not exactly one table row", k)
		}
	}
	// The optional key is a row only when the result has it.
	if strings.Contains(md, "simulated") {
		t.Errorf("a HackRF's result shows simulated:\n%s", md)
	}
	r.Simulated = true
	if md := string(RenderMarkdown(r)); strings.Count(md, "| `simulated` | `true` |\n") != 1 {
		t.Errorf("a simulated result does not say so once:\n%s", md)
	}
	if strings.Contains(md, "## Notes") {
		t.Error("Notes heading without notes")
	}
}

// An unvalidated Result can't break the table or the heading.
func TestRenderMarkdownEscapes(t *testing.T) {
	r := sampleComplete()
	r.TaskID = "A|B`C\nD"
	md := string(RenderMarkdown(r))
	title, rest, _ := strings.Cut(md, "\n")
	if title != "# RX result ``A|B`C?D`` — `CAPTURE_COMPLETE`" {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(rest, "| `task_id` | ``\"A\\|B`C\\nD\"`` |\n") {
		t.Errorf("task_id row not escaped:\n%s", rest)
	}
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 3 {
			t.Errorf("row has extra cells: %q", line)
		}
	}
}

func TestCodeSpan(t *testing.T) {
	if got := cell("a|b"); got != "`a\\|b`" {
		t.Errorf("cell(a|b) = %q", got)
	}
	for in, want := range map[string]string{
		"x":     "`x`",
		"a`b":   "``a`b``",
		"`a":    "`` `a ``",
		"a``b`": "``` a``b` ```",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
}
