package demo

import (
	"bytes"
	"strings"
	"testing"
)

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"line\r", "line"},
		// The prompt's countdown block vanishes whole, its text included.
		{"> \x1b7\x1b[1A\x1b[1G\x1b[2K29 s left\x1b8AUTHORIZE RF TX", "> AUTHORIZE RF TX"},
		{"\aType exactly: AUTHORIZE RF TX", "Type exactly: AUTHORIZE RF TX"},
		{"\x1b[1mbold\x1b[0m", "bold"},
		{"a\x1b7\x1b[1Ax\x1b8b\x1b7\x1b[2Ky\x1b8c", "abc"},
		// An unfinished block (a partial line) leaves no escape behind.
		{"> \x1b7\x1b[1A\x1b[1G", "> "},
	} {
		if got := plain([]byte(c.in)); got != c.want {
			t.Errorf("plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzPlain(f *testing.F) {
	f.Add([]byte("> \x1b7\x1b[1A\x1b[1G\x1b[2K29 s left\x1b8"))
	f.Add([]byte("\x1b[31mred\x1b[0m\r"))
	f.Add([]byte("\x1b"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := plain(b)
		if strings.ContainsAny(got, "\x1b\r\a") {
			t.Fatalf("plain(%q) = %q still holds ESC, CR or BEL", b, got)
		}
		if again := plain([]byte(got)); again != got {
			t.Fatalf("plain is not idempotent: %q -> %q -> %q", b, got, again)
		}
	})
}

// operator returns an autoOperator writing to buffers: out is what the
// demo shows, typed what it types.
func operator(answers ...Answer) (a *autoOperator, out, typed *bytes.Buffer) {
	out, typed = &bytes.Buffer{}, &bytes.Buffer{}
	a = &autoOperator{side: "RX", out: &sink{w: out}, term: typed, answers: answers}
	return a, out, typed
}

func write(a *autoOperator, chunks ...string) {
	for _, c := range chunks {
		_, _ = a.Write([]byte(c))
	}
}

func TestAutoOperatorAnswersOnlyAtTheInputLine(t *testing.T) {
	a, out, typed := operator(Answer{Prompt: "[A] Approve  [D] Defer  [S] Stop watcher", Reply: "A"})
	write(a, "=== Task awaiting approval ===\r\n", "[A] Approve  [D] Defer")
	if typed.Len() != 0 {
		t.Fatalf("typed %q before the question was complete", typed)
	}
	write(a, "  [S] Stop watcher\r\n")
	if typed.Len() != 0 {
		t.Fatalf("typed %q before the input line was shown", typed)
	}
	write(a, "> ")
	if typed.String() != "A\n" {
		t.Fatalf("typed %q at the input line, want %q", typed, "A\n")
	}
	// The echo is marked; a second input line gets nothing more.
	write(a, "A\r\n", "Type exactly A, D or S\r\n", "> ")
	if typed.String() != "A\n" {
		t.Errorf("typed %q, want only one answer", typed)
	}
	if !strings.Contains(out.String(), "RX   | > A      <- typed by demo --auto\n") {
		t.Errorf("echo not marked:\n%s", out)
	}
	if pending, err := a.result(); len(pending) != 0 || err != nil {
		t.Errorf("pending %v, err %v", pending, err)
	}
}

func TestAutoOperatorCountdownDoesNotHideTheInputLine(t *testing.T) {
	a, _, typed := operator(Answer{Prompt: "Type exactly: AUTHORIZE RF TX", Reply: "AUTHORIZE RF TX"})
	write(a, "Type exactly: AUTHORIZE RF TX\r\nExpires at 12:00:00.\r\n30 s left\r\n> \x1b7\x1b[1A\x1b[1G\x1b[2K29 s left\x1b8")
	if typed.String() != "AUTHORIZE RF TX\n" {
		t.Errorf("typed %q", typed)
	}
}

func TestAutoOperatorNeverAnswersAnUnexpectedQuestion(t *testing.T) {
	for name, answers := range map[string][]Answer{
		"another phrase": {{Prompt: "Type exactly: AUTHORIZE RF TX", Reply: "AUTHORIZE RF TX"}},
		"nothing":        nil,
		"a longer line":  {{Prompt: "Type exactly: AUTHORIZE", Reply: "AUTHORIZE"}},
	} {
		t.Run(name, func(t *testing.T) {
			a, out, typed := operator(answers...)
			write(a, "Type exactly: AUTHORIZE DEMO_TASK\r\n> ")
			if typed.Len() != 0 {
				t.Fatalf("typed %q for a question it was not given", typed)
			}
			if _, err := a.result(); err == nil || !strings.HasSuffix(err.Error(), `asked a question the demo does not answer on its own: "Type exactly: AUTHORIZE DEMO_TASK"`) {
				t.Fatalf("result() = %v", err)
			}
			if !strings.Contains(out.String(), "stays unanswered") {
				t.Errorf("the refusal is not shown:\n%s", out)
			}
			// Once failed it types nothing, even the expected question.
			write(a, "Type exactly: AUTHORIZE RF TX\r\n> ")
			if typed.Len() != 0 {
				t.Errorf("typed %q after failing", typed)
			}
		})
	}
}

func TestLineSplitterPrefixesWholeLines(t *testing.T) {
	var out bytes.Buffer
	l := prefixed(&sink{w: &out}, "MAIN | ")
	_, _ = l.Write([]byte("one\ntw"))
	_, _ = l.Write([]byte("o\r\nthree"))
	l.flush()
	if want := "MAIN | one\nMAIN | two\nMAIN | three\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
