package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScript runs the end-to-end scripts in the module's testdata/script
// with rfhandoff and the HackRF simulator on PATH and real git; REPO_ROOT
// is the module root.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o700); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("HACKRF_SIM", "")
			env.Setenv("RFHANDOFF_CONFIG", "")
			root, err := filepath.Abs("..")
			if err != nil {
				return err
			}
			env.Setenv("REPO_ROOT", root)
			return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(
				"[user]\n\tname = Test Operator\n\temail = op@example.invalid\n[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n"), 0o600)
		},
	})
}
