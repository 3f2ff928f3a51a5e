package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// PROTOCOL#several-nodes: [node] and [[nodes]] are read, every problem at once.
func TestNodesPolicy(t *testing.T) {
	p, err := Parse([]byte(`
[node]
name = "rx-a"

[[nodes]]
name = "rx-a"
result_branch = "rx-a"

[[nodes]]
name = "rx-b"
result_branch = "rx-b"
result_signers = "keys/rx-b.allowed"
`), "nodes.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Node.Name != "rx-a" || len(p.Nodes) != 2 || p.Nodes[1] != (MainNode{"rx-b", "rx-b", "keys/rx-b.allowed"}) {
		t.Errorf("got node %+v, nodes %+v", p.Node, p.Nodes)
	}
	// config check prints them, and the rendering reads back.
	back, err := Parse([]byte(p.TOML()), "rendered")
	if err != nil || back.Node != p.Node || len(back.Nodes) != 2 || back.Nodes[1] != p.Nodes[1] {
		t.Errorf("rendering does not read back: %v\n%s", err, p.TOML())
	}
	if d := Default().TOML(); strings.Contains(d, "[node]") || strings.Contains(d, "[[nodes]]") {
		t.Errorf("the default policy renders node tables:\n%s", d)
	}
}

func TestNodesPolicyRefusals(t *testing.T) {
	var b strings.Builder
	b.WriteString("[node]\nname = \"RX-A\"\n")
	b.WriteString("[[nodes]]\nname = \"rx-a\"\nresult_branch = \"video-development\"\n")
	b.WriteString("[[nodes]]\nname = \"rx-a\"\n")
	b.WriteString("[[nodes]]\nresult_branch = \"x\"\n")
	b.WriteString("[[nodes]]\nname = \"b_c\"\nresult_branch = \"x\"\nsigners = \"k\"\n")
	b.WriteString("[[nodes]]\nname = \"d\"\nresult_branch = \"-x\"\nresult_signers = \"../k\"\n")
	_, err := Parse([]byte(b.String()), "bad.toml")
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		"bad.toml",
		"unknown key nodes.signers",
		`node.name = "RX-A": must match`,
		`nodes[0].result_branch = "video-development": must differ from repo.task_branch`,
		`nodes[1].name = "rx-a": repeats nodes[0].name`,
		`nodes[1].result_branch = "": is required`,
		`nodes[2].name = "": is required`,
		`nodes[3].name = "b_c": must match`,
		`nodes[3].result_branch = "x": repeats nodes[2].result_branch`,
		`nodes[4].result_branch = "-x"`,
		`nodes[4].result_signers = "../k": must not contain ".."`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}

	var many strings.Builder
	for i := range 9 {
		many.WriteString("[[nodes]]\nname = \"n" + string(rune('0'+i)) + "\"\nresult_branch = \"b" + string(rune('0'+i)) + "\"\n")
	}
	if _, err := Parse([]byte(many.String()), "many.toml"); err == nil || !strings.Contains(err.Error(), "lists 9 nodes, more than 8") {
		t.Errorf("9 nodes: %v", err)
	}
}

// A node's result_signers file is read like [trust]'s: missing or
// malformed is a policy error naming the key and the file.
func TestNodesSignersFilesChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.allowed"), []byte("rx-a "+aliceKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.allowed"), []byte("rx-b ssh-ed25519 no!pe\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	write := func(body string) string {
		path := filepath.Join(dir, "rfhandoff.toml")
		if err := os.WriteFile(path, []byte("[repo]\npath = "+quoteTOML(dir)+"\n"+body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("[[nodes]]\nname = \"rx-a\"\nresult_branch = \"rx-a\"\nresult_signers = \"a.allowed\"\n")
	p, err := Load(good)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.NodeResultSignersPath(p.Nodes[0]); got != filepath.Join(dir, "a.allowed") {
		t.Errorf("NodeResultSignersPath = %q", got)
	}
	bad := write("[[nodes]]\nname = \"rx-a\"\nresult_branch = \"rx-a\"\nresult_signers = \"missing.allowed\"\n" +
		"[[nodes]]\nname = \"rx-b\"\nresult_branch = \"rx-b\"\nresult_signers = \"b.allowed\"\n")
	_, err = Load(bad)
	for _, want := range []string{`nodes[0].result_signers = "missing.allowed"`, `nodes[1].result_signers = "b.allowed"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q: %v", want, err)
		}
	}
}

func quoteTOML(s string) string { return "'" + s + "'" }
