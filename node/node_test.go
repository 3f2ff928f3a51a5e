package node

import (
	"slices"
	"strings"
	"testing"
)

func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  []string
		probs []string // substrings, one per problem, in order
	}{
		{in: "rx-a", want: []string{"rx-a"}},
		{in: "rx-a, rx-b,rx-c ", want: []string{"rx-a", "rx-b", "rx-c"}},
		{in: "0, a-1-b", want: []string{"0", "a-1-b"}},
		{in: strings.Repeat("a", 32), want: []string{strings.Repeat("a", 32)}},
		{in: "", probs: []string{"item 1 is empty"}},
		{in: "rx-a,,rx-b", probs: []string{"item 2 is empty"}},
		{in: "RX-A, -b, rx_c", probs: []string{`item 1: "RX-A"`, `item 2: "-b"`, `item 3: "rx_c"`}},
		{in: strings.Repeat("a", 33), probs: []string{"is not a node name"}},
		{in: "rx-a, rx-b, rx-a", probs: []string{`item 3: "rx-a" repeats item 1`}},
		{in: "a,b,c,d,e,f,g,h,i", probs: []string{"names 9 nodes, more than 8"}},
		{in: "a,a,b,c,d,e,f,g,h,", probs: []string{"item 2", "item 10 is empty", "names 10 nodes"}},
	} {
		l, probs := ParseList(tc.in)
		if got := l.Names(); !slices.Equal(got, tc.want) {
			t.Errorf("ParseList(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len(probs) != len(tc.probs) {
			t.Errorf("ParseList(%q) problems = %q, want %d like %q", tc.in, probs, len(tc.probs), tc.probs)
			continue
		}
		for i, p := range tc.probs {
			if !strings.Contains(probs[i], p) {
				t.Errorf("ParseList(%q) problem %d = %q, want it to contain %q", tc.in, i, probs[i], p)
			}
		}
	}
}

func TestListRoundTrips(t *testing.T) {
	l, probs := ParseList("rx-a,rx-b , rx-c")
	if probs != nil || l.String() != "rx-a, rx-b, rx-c" || l.Len() != 3 || !l.Contains("rx-b") || l.Contains("rx") {
		t.Fatalf("ParseList = %q (%d), %q", l, l.Len(), probs)
	}
	again, probs := ParseList(l.String())
	if probs != nil || again != l {
		t.Fatalf("ParseList(%q) = %q, %q", l, again, probs)
	}
	var zero List
	if zero.Names() != nil || zero.Len() != 0 || zero.Contains("") || zero.String() != "" {
		t.Errorf("the zero List names nodes: %q", zero.Names())
	}
}
