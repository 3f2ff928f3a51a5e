package task

import (
	"errors"
	"strings"
	"testing"

	"rfhandoff/node"
)

// PROTOCOL#several-nodes: RX_NODES is optional; present, it is validated like every
// field, every reason at once.
func TestParseRXNodes(t *testing.T) {
	tk := mustParse(t, hdr(nil)+"RX_NODES = rx-a, rx-b,rx-c\n\nbody\n", testOpts)
	if got := strings.Join(tk.Nodes.Names(), "|"); got != "rx-a|rx-b|rx-c" {
		t.Errorf("Nodes = %q", got)
	}
	if n, err := tk.Node("rx-b"); n != "rx-b" || err != nil {
		t.Errorf("Node(rx-b) = %q, %v", n, err)
	}
	if n, err := tk.Node("rx-d"); n != "" || !errors.Is(err, ErrNotForNode) || !strings.Contains(err.Error(), `does not list [node] name "rx-d"`) {
		t.Errorf("Node(rx-d) = %q, %v", n, err)
	}
	if n, err := tk.Node(""); n != "" || err == nil || errors.Is(err, ErrNotForNode) || !strings.Contains(err.Error(), "no [node] name") {
		t.Errorf("Node(\"\") = %q, %v", n, err)
	}
	single := mustParse(t, hdr(nil)+"\nbody\n", testOpts)
	for _, name := range []string{"", "rx-a"} {
		if n, err := single.Node(name); n != "" || err != nil || single.Nodes.Len() != 0 {
			t.Errorf("single-node task: Node(%q) = %q, %v", name, n, err)
		}
	}
	// Anywhere in the header, like every field.
	tk = mustParse(t, "RX_NODES = rx-z\n"+hdr(nil)+"\nbody\n", testOpts)
	if tk.Nodes.String() != "rx-z" {
		t.Errorf("Nodes = %q", tk.Nodes)
	}
}

func TestParseRXNodesInvalid(t *testing.T) {
	line := len(baseFields) + 1
	data := hdr(map[string]string{FieldRFTX: "MAYBE"}) + "RX_NODES = rx-a, RX-B, , rx-a, x_y\n\nbody\n"
	wantProblems(t, data, testOpts,
		prob{kindInvalid, FieldRFTX, lineOf(FieldRFTX)},
		prob{kindInvalid, FieldRXNodes, line})
	_, err := Parse([]byte(data), testOpts)
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatal(err)
	}
	msg := ie.Problems()[1].Error()
	for _, want := range []string{"RX_NODES", `"RX-B"`, "item 3 is empty", `"rx-a" repeats item 1`, `"x_y"`, node.Pattern()} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}

	wantProblems(t, hdr(nil)+"RX_NODES = rx-a\nRX_NODES = rx-b\n\nbody\n", testOpts,
		prob{kindDuplicate, FieldRXNodes, line + 1})
	wantProblems(t, hdr(nil)+"RX_NODES = a,b,c,d,e,f,g,h,i\n\nbody\n", testOpts,
		prob{kindInvalid, FieldRXNodes, line})
	wantProblems(t, hdr(nil)+"RX_NODES =\n\nbody\n", testOpts,
		prob{kindInvalid, FieldRXNodes, line})
	wantProblems(t, hdr(nil)+"rx_nodes = rx-a\n\nbody\n", testOpts,
		prob{kindUnknown, "rx_nodes", line})
}

// Build writes RX_NODES after RISK_LEVEL only when asked, and what it
// writes parses back to the same list.
func TestBuildRXNodes(t *testing.T) {
	l, probs := node.ParseList("rx-a,rx-b")
	if probs != nil {
		t.Fatal(probs)
	}
	data, tk, err := Build(spec(func(s *Spec) { s.Nodes = l }), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "RISK_LEVEL = GREEN\nRX_NODES = rx-a, rx-b\n\n") || tk.Nodes != l {
		t.Errorf("rendered %q, parsed %q", data, tk.Nodes)
	}
	data, tk, err = Build(spec(nil), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), FieldRXNodes) || tk.Nodes.Len() != 0 {
		t.Errorf("a single-node task got an RX_NODES line: %q", data)
	}
}
