package rxside

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/hiddentext"
	"rfhandoff/internal/tasktest"
	"rfhandoff/state"
	"rfhandoff/task"
)

// hiddenBody holds every class of character a terminal does not show, each
// on its own line so the test can name the one that leaks.
var hiddenBody = []struct{ name, raw, shown string }{
	{"tag characters", "note\U000E0001\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E007F", "note<U+E0001><U+E0069><U+E0067><U+E006E><U+E006F><U+E0072><U+E0065><U+E007F>"},
	{"zero-width space", "zero\u200bwidth", "zero<U+200B>width"},
	{"zero-width joiner", "join\u200ded", "join<U+200D>ed"},
	{"word joiner", "word\u2060joiner", "word<U+2060>joiner"},
	{"soft hyphen", "soft\u00adhyphen", "soft<U+00AD>hyphen"},
	{"BOM inside (Cf)", "bom\ufeffinside", "bom<U+FEFF>inside"},
	{"private use BMP", "pua \ue000", "pua <U+E000>"},
	{"private use plane 15", "plane15 \U000F0041", "plane15 <U+F0041>"},
	{"private use plane 16", "plane16 \U00100041", "plane16 <U+100041>"},
	{"unassigned", "unassigned \u0378 \U000E0080", "unassigned <U+0378> <U+E0080>"},
	{"variation selectors", "vs \u2764\ufe0f \u845b\U000E0100 \u180b", "vs ❤<U+FE0F> 葛<U+E0100> <U+180B>"},
	{"Hangul filler", "filler \u3164", "filler <U+3164>"},
	{"ESC", "esc \x1b[2J", "esc <U+001B>[2J"},
	{"bidi override", "bidi \u202eevil", "bidi <U+202E>evil"},
	// What prints as a space or as nothing without being U+0020.
	{"no-break spaces", "433\u00a0MHz\u202fnarrow\u2007figure", "433<U+00A0>MHz<U+202F>narrow<U+2007>figure"},
	{"typographic spaces", "em\u2003thin\u2009hair\u200a", "em<U+2003>thin<U+2009>hair<U+200A>"},
	{"other spaces", "ogham\u1680math\u205fideo\u3000", "ogham<U+1680>math<U+205F>ideo<U+3000>"},
	{"blank glyphs", "braille\u2800object\ufffckhitan\U00016FE4", "braille<U+2800>object<U+FFFC>khitan<U+16FE4>"},
	// A CR is shown unless it ends a line in a CRLF.
	{"lone CR", "shown\rhidden", "shown<U+000D>hidden"},
	{"CR CR LF", "overwrite\r\r", "overwrite<U+000D>"},
	{"CRLF", "crlf line\r", "crlf line"},
}

// hiddenTask is a body holding hiddenBody, raw and as it must be shown.
func hiddenTask() (string, string) {
	var raw, shown strings.Builder
	raw.WriteString("## Steps\n\n")
	shown.WriteString("## Steps\n\n")
	for _, l := range hiddenBody {
		raw.WriteString(l.raw + "\n")
		shown.WriteString(l.shown + "\n")
	}
	return raw.String(), shown.String()
}

// TestTaskMarkdownHiddenText: TASK.md quotes the body in the very rendering
// the approval prompt shows (hiddentext.Sanitize), every hidden class escaped,
// and binds the digest of the raw bytes.
func TestTaskMarkdownHiddenText(t *testing.T) {
	t.Parallel()
	raw, shown := hiddenTask()
	mx := NewManualExecutor(t.TempDir(), config.Default())
	cur := parsed(t, tasktest.TaskSpec{ID: "OUTBOX_HIDDEN_1", Body: raw})
	if hiddentext.Sanitize(cur.Task.Body) != shown {
		t.Fatalf("the prompt's rendering is %q, want %q", hiddentext.Sanitize(cur.Task.Body), shown)
	}
	a := state.Approval{TaskID: cur.Task.ID, TaskSHA256: cur.Task.SHA256, Commit: cur.Commit, ApprovedAt: time.Now()}
	dir, err := mx.Prepare(cur, a, "")
	if err != nil {
		t.Fatal(err)
	}
	md := readFile(t, filepath.Join(dir, OutboxTaskFile))
	for _, l := range hiddenBody {
		if !strings.Contains(md, "\n> "+l.shown+"\n") {
			t.Errorf("%s: TASK.md lacks the line %q", l.name, "> "+l.shown)
		}
	}
	for i, r := range md {
		if r != '\n' && hiddentext.Hidden(r) {
			t.Errorf("TASK.md holds raw %U at byte %d", r, i)
		}
	}
	if want := task.Digest(cur.Data); cur.Task.SHA256 != want || !strings.Contains(md, "`"+want+"`") {
		t.Errorf("TASK.md does not bind the raw bytes' digest %s", want)
	}
}

// TestWriteSummaryHiddenText: rx check's summary counts the hidden
// characters of the body and prints none of them raw.
func TestWriteSummaryHiddenText(t *testing.T) {
	t.Parallel()
	raw, _ := hiddenTask()
	cur := parsed(t, tasktest.TaskSpec{ID: "SUMMARY_HIDDEN_1", Body: raw})
	var b bytes.Buffer
	WriteSummary(&b, cur, Awaiting)
	out := b.String()
	if want := "body:     holds 38 hidden or control characters, shown as <U+XXXX> at the prompt and in TASK.md\n" +
		"escapes:  <U+E0001> <U+E0069> <U+E0067> <U+E006E> <U+E006F> <U+E0072> <U+E0065> <U+E007F> <U+200B> <U+200D> " +
		"<U+2060> <U+00AD> <U+FEFF> <U+E000> <U+F0041> <U+100041> and 21 more\n"; !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
	for i, r := range out {
		if r != '\n' && hiddentext.Hidden(r) {
			t.Errorf("summary holds raw %U at byte %d", r, i)
		}
	}
	// A plain body gets no such line, CRLF line endings included.
	b.Reset()
	WriteSummary(&b, parsed(t, tasktest.TaskSpec{ID: "SUMMARY_PLAIN_1", Body: "## Goal\r\n\r\nCapture.\r\n"}), Awaiting)
	if strings.Contains(b.String(), "body:") || strings.Contains(b.String(), "escapes:") {
		t.Errorf("a plain body is reported:\n%s", b.String())
	}
}

// TestWriteSummaryNamesEscapes: rx check names each different escape once,
// in the order the body holds it, in the very text the prompt and TASK.md
// write: blanks and every CR that does not end a line in a CRLF.
func TestWriteSummaryNamesEscapes(t *testing.T) {
	t.Parallel()
	body := "## Goal\r\n\r\n433\u00a0MHz\r\r\nshown\rhidden\u2800\u00a0\nend\r"
	cur := parsed(t, tasktest.TaskSpec{ID: "SUMMARY_BLANK_1", Body: body})
	var b bytes.Buffer
	WriteSummary(&b, cur, Awaiting)
	want := "body:     holds 6 hidden or control characters, shown as <U+XXXX> at the prompt and in TASK.md\n" +
		"escapes:  <U+00A0> <U+000D> <U+2800>\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
	if got, shown := hiddentext.Sanitize(cur.Task.Body), "## Goal\n\n433<U+00A0>MHz<U+000D>\nshown<U+000D>hidden<U+2800><U+00A0>\nend<U+000D>"; got != shown {
		t.Errorf("the prompt's rendering is %q, want %q", got, shown)
	}
	if strings.ContainsRune(b.String(), '\r') {
		t.Errorf("summary holds a raw CR:\n%q", b.String())
	}
}
