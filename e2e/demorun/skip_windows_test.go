package demorun

import "testing"

// skipDemoAuto skips: demo --auto refuses on Windows by design (it answers
// the prompts on pseudo-terminals of its own, which Windows has none of);
// demo's TestAutoRefusedOnWindows and scripts/test-windows.sh check that
// refusal and that it leaves no sandbox.
func skipDemoAuto(t *testing.T) {
	t.Helper()
	t.Skip("demo --auto is refused on Windows by design (no pseudo-terminals); its refusal is tested in demo/ and by scripts/test-windows.sh")
}
