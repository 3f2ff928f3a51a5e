package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeStep is one command line of README "First run": where it is
// typed and what.
type readmeStep struct {
	machines []string // "main", "rx", or both
	line     string   // continuation lines joined, the trailing comment cut
}

// readmeFirstRun reads README's "First run" shell block. A comment line
// that starts with "# MAIN PC", "# RX laptop", "# both machines",
// "# afterwards, RX laptop" or "# and MAIN PC" says where the lines after
// it are typed; a command line's own trailing "# both machines" does too.
func readmeFirstRun(t *testing.T) []readmeStep {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	_, sec, ok := strings.Cut(text, "\n## First run\n")
	if !ok {
		t.Fatal(`README has no "## First run" section`)
	}
	_, block, ok := strings.Cut(sec, "```sh\n")
	if !ok {
		t.Fatal(`README "First run" has no sh block`)
	}
	block, _, _ = strings.Cut(block, "```")
	var steps []readmeStep
	var where []string
	pending := ""
	for _, raw := range strings.Split(block, "\n") {
		l := strings.TrimSpace(raw)
		if strings.HasPrefix(l, "#") {
			switch {
			case strings.HasPrefix(l, "# MAIN PC"), strings.HasPrefix(l, "# and MAIN PC"):
				where = []string{"main"}
			case strings.HasPrefix(l, "# RX laptop"), strings.HasPrefix(l, "# afterwards, RX laptop"):
				where = []string{"rx"}
			case strings.HasPrefix(l, "# both machines"):
				where = []string{"main", "rx"}
			}
			continue
		}
		if l == "" {
			continue
		}
		l = pending + l
		if strings.HasSuffix(l, `\`) {
			pending = strings.TrimSuffix(l, `\`)
			continue
		}
		pending = ""
		step := readmeStep{machines: where, line: cutComment(l)}
		if strings.Contains(l, "# both machines") {
			step.machines = []string{"main", "rx"}
		}
		if len(step.machines) == 0 {
			t.Fatalf("README First run: %q comes before any line saying which machine", l)
		}
		steps = append(steps, step)
	}
	return steps
}

// cutComment drops a trailing "  # ..." comment outside quotes.
func cutComment(l string) string {
	quote := rune(0)
	for i, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '#' && i > 0 && l[i-1] == ' ':
			return strings.TrimSpace(l[:i])
		}
	}
	return strings.TrimSpace(l)
}

// shellWords splits a command line as sh would for the simple lines the
// README gives: words separated by spaces, "..." and '...' quoting.
func shellWords(l string) []string {
	var words []string
	var cur strings.Builder
	quote, in := rune(0), false
	for _, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// The parser reads what the first run follows: every line, where it is
// typed, in order.
func TestReadmeFirstRunParsed(t *testing.T) {
	steps := readmeFirstRun(t)
	var got []string
	for _, s := range steps {
		got = append(got, strings.Join(s.machines, "+")+": "+s.line)
	}
	want := []string{
		"main: echo '/.local/' >> .gitignore && git add .gitignore && git commit -m 'ignore rfhandoff state' && git push origin HEAD:refs/heads/video-development",
		`main: git push origin "$(git rev-parse HEAD)":refs/heads/rx-node`,
	}
	for i, w := range want {
		if i >= len(got) || got[i] != w {
			t.Fatalf("step %d: got %q, want %q\nall:\n%s", i, got[min(i, len(got)-1)], w, strings.Join(got, "\n"))
		}
	}
	joined := strings.Join(got, "\n")
	for _, w := range []string{
		"main+rx: rfhandoff config check",
		"main: rfhandoff doctor main",
		"rx: rfhandoff doctor rx",
		"main: rfhandoff task new RF001A_OTA_CAPTURE_003 --title \"Common-clock OTA capture, 433.92 MHz\" --rf-rx --allow-push RX_RESULT_ONLY --body-file plan.md",
		"rx: rfhandoff rx capture RF001A_OTA_CAPTURE_003",
		"main: rfhandoff tx execute",
		"main: rfhandoff tx status",
	} {
		if !strings.Contains(joined, w) {
			t.Errorf("README First run lacks %q:\n%s", w, joined)
		}
	}
	if w := shellWords(`rfhandoff task new X --title "a b, c" --x 'y z'`); strings.Join(w, "|") != "rfhandoff|task|new|X|--title|a b, c|--x|y z" {
		t.Errorf("shellWords: %q", w)
	}
}
