package prompttest

import "testing"

func TestConhostText(t *testing.T) {
	for _, c := range []struct {
		name  string
		reads []string
		want  string
	}{
		{"what Wine's console wrote for a prompt and an answer",
			[]string{"\x1b[2J\x1b[m\x1b[H\x1b[?25lType X:\x1b[K\x1b[1C\x1b[?25h", "\x1b[?25lhello\r\n\x1b[?25h"},
			"Type X: hello\r\n"},
		{"a sequence cut between reads", []string{"ab\x1b[", "?2", "5lc\x1b[3", "Cd"}, "abc   d"},
		{"the child's own colour and title stay", []string{"\x1b[31mRED\x1b[0m \x1b]0;PWNED\x07"}, "\x1b[31mRED\x1b[0m \x1b]0;PWNED\x07"},
		{"a clear with another argument stays", []string{"\x1b[1J\x1b[5;1H"}, "\x1b[1J\x1b[5;1H"},
		{"a lone ESC before text", []string{"\x1bx"}, "\x1bx"},
		{"an absurd move right stays", []string{"\x1b[99999C"}, "\x1b[99999C"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f conhostText
			var got []byte
			for _, r := range c.reads {
				got = append(got, f.write([]byte(r))...)
			}
			if string(got) != c.want || len(f.pending) != 0 {
				t.Errorf("got %q (pending %q), want %q", got, f.pending, c.want)
			}
		})
	}
}
