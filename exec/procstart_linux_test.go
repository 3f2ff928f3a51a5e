package exec

import (
	"fmt"
	"testing"
)

func TestParseStatStart(t *testing.T) {
	// Fields 5 to 17, then priority, nice, num_threads, itrealvalue, starttime.
	tail := " 0 0 0 0 0 0 0 0 0 0 0 0 0 20 0 1 0 %s 1000 200"
	line := func(comm, start string) []byte {
		return []byte("4242 (" + comm + ") S 1" + fmt.Sprintf(tail, start))
	}
	for _, c := range []struct {
		name string
		data []byte
		want int64
		ok   bool
	}{
		{"plain", line("hackrf_transfer", "987654"), 987654, true},
		{"spaces and parens in the name", line("a) b (c", "77"), 77, true},
		{"no name", []byte("4242 hackrf S 1 2 3"), 0, false},
		{"short", []byte("4242 (x) S 1 2 3"), 0, false},
		{"not a number", line("x", "soon"), 0, false},
		{"negative", line("x", "-3"), 0, false},
	} {
		got, err := parseStatStart(c.data)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%s: parseStatStart(%q) = %d, %v", c.name, c.data, got, err)
		}
	}
}
