package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/exec"
)

// The simulator's tool files are what exec resolves as pinned tools, and
// checkSimTool tells them from anything else. No git involved.
func TestMakeBinMakesResolvableSimulators(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sb := &Sandbox{Bin: filepath.Join(dir, "bin"), Exe: exe}
	if err := sb.makeBin(); err != nil {
		t.Fatal(err)
	}
	pinned := map[exec.Tool]string{}
	for _, tool := range simTools {
		if err := checkSimTool(sb.tool(tool), exe); err != nil {
			t.Errorf("%s: %v", sb.tool(tool), err)
		}
		pinned[tool] = sb.tool(tool)
	}
	paths, missing := exec.ResolveTools(pinned, nil)
	for _, tool := range simTools {
		if err := missing[tool]; err != nil || paths[tool] != sb.tool(tool) {
			t.Errorf("exec resolves %s as %q (%v), want %s", tool, paths[tool], err, sb.tool(tool))
		}
	}

	// Another file in the tool's place is not the simulator.
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("not rfhandoff"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkSimTool(sb.tool(exec.HackRFInfo), other); err == nil {
		t.Errorf("%s passes as the simulator of %s", sb.tool(exec.HackRFInfo), other)
	}
	// A second makeBin never overwrites what is there.
	if err := sb.makeBin(); err == nil || !strings.Contains(err.Error(), "exist") {
		t.Errorf("makeBin over an existing bin: %v, want an error", err)
	}
}

func TestSameContent(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := strings.Repeat("x", 1<<17+3)
	a, b := write("a", big), write("b", big)
	if err := sameContent(a, b); err != nil {
		t.Errorf("equal files: %v", err)
	}
	for name, s := range map[string]string{"short": big[:1<<17], "longer": big + "x", "differs": big[:1<<16] + "y" + big[1<<16+1:], "empty": ""} {
		if err := sameContent(a, write(name, s)); err == nil {
			t.Errorf("%s: reported as the same content", name)
		}
	}
	if err := sameContent(write("e1", ""), write("e2", "")); err != nil {
		t.Errorf("two empty files: %v", err)
	}
}
