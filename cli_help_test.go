package main

import (
	"bytes"
	"strings"
	"testing"
)

// rfhandoff alone and rfhandoff help print the short help with the two
// commands to try first and the whole command list; help COMMAND is that
// command's --help.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		code  int
		want  []string
		avoid []string
	}{
		{nil, 2, []string{"Try first:", "rfhandoff demo", "rfhandoff doctor rx", "rx capture", "tx execute"}, []string{"error:"}},
		{[]string{"help"}, 0, []string{"Try first:", "rfhandoff demo", "rfhandoff doctor rx", "audit verify"}, []string{"error:"}},
		{[]string{"help", "rx", "capture"}, 0, []string{"Usage: rfhandoff rx capture"}, []string{"Try first:"}},
	} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"rfhandoff"}, tc.args...), &out, &errb)
		if code != tc.code {
			t.Errorf("rfhandoff %v: exit %d, want %d; stderr %q", tc.args, code, tc.code, errb.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("rfhandoff %v: stdout lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		for _, a := range append(tc.avoid, "expected one of") {
			if strings.Contains(out.String()+errb.String(), a) {
				t.Errorf("rfhandoff %v: output has %q", tc.args, a)
			}
		}
	}
}
