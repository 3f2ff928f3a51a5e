package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cli/safeexec"

	"rfhandoff/internal/testrun"
	"rfhandoff/prompt/prompttest"
)

// simulatorNames are the HackRF tools' names: the rfhandoff binary run
// under one of them is the simulator.
var simulatorNames = []string{"hackrf_info", "hackrf_transfer", "hackrf_clock"}

// TestMain builds the rfhandoff binary once and puts it, and the HackRF
// simulator (the same binary under the tools' names), first on PATH for
// every test in this package: Go tests, pty tests and testscript scripts
// all run the real binary as a subprocess.
func TestMain(m *testing.M) {
	prompttest.Serve()
	testrun.ParallelByDefault(testrun.Waiting)
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "rfhandoff-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := installBinary(dir); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if err := os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// prebuiltEnv names a prebuilt rfhandoff binary to test instead of
// building one: under Wine there is no Windows go command
// (scripts/test-windows.sh builds the binary on the host).
const prebuiltEnv = "RFHANDOFF_E2E_BIN"

// installBinary builds rfhandoff into dir (or copies the one prebuiltEnv
// names) and links the simulator's names to it (hard links: no privileges
// needed on any system, and argv[0] is the name run).
func installBinary(dir string) error {
	bin := filepath.Join(dir, "rfhandoff"+exeSuffix)
	if pre := os.Getenv(prebuiltEnv); pre != "" {
		b, err := os.ReadFile(pre)
		if err != nil {
			return fmt.Errorf("%s: %w", prebuiltEnv, err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			return err
		}
	} else if err := goBuild(bin); err != nil {
		return err
	}
	for _, name := range simulatorNames {
		if err := os.Link(bin, filepath.Join(dir, name+exeSuffix)); err != nil {
			return fmt.Errorf("linking the simulator as %s: %w", name, err)
		}
	}
	return nil
}

// goBuild runs `go build -o bin rfhandoff` with this test binary's race
// setting, its output on stderr. The go command is the one running the
// tests (go test puts its GOROOT/bin first on PATH).
func goBuild(bin string) error {
	gobin, err := safeexec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is needed to build rfhandoff: %w", err)
	}
	args := []string{gobin, "build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	args = append(args, "rfhandoff")
	proc, err := os.StartProcess(gobin, args, &os.ProcAttr{
		Env: os.Environ(), Files: []*os.File{nil, os.Stderr, os.Stderr},
	})
	if err != nil {
		return fmt.Errorf("starting go build: %w", err)
	}
	st, err := proc.Wait()
	if err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	if !st.Success() {
		return errors.New("go build of rfhandoff failed: " + st.String())
	}
	return nil
}
