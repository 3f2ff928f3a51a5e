// Package testbin builds the rfhandoff binary once per test package and
// puts it, and the HackRF simulator (the same binary under the tools'
// names), first on PATH: the end-to-end packages' tests, pty sessions and
// scripts all run the real binary as a subprocess. It imports nothing of
// rfhandoff's.
package testbin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cli/safeexec"
)

// SimulatorNames are the HackRF tools' names: the rfhandoff binary run
// under one of them is the simulator.
var SimulatorNames = []string{"hackrf_info", "hackrf_transfer", "hackrf_clock"}

// PrebuiltEnv names a prebuilt rfhandoff binary to test instead of
// building one: under Wine there is no Windows go command
// (scripts/test-windows.sh builds the binary on the host).
const PrebuiltEnv = "RFHANDOFF_E2E_BIN"

// ExeSuffix is what the platform needs on a program's file name.
var ExeSuffix = map[bool]string{true: ".exe", false: ""}[runtime.GOOS == "windows"]

// Run builds the binary into a temporary directory, puts that directory
// first on PATH, runs the package's tests and removes it; it returns the
// exit code for os.Exit. Call it from TestMain.
func Run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "rfhandoff-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := install(dir); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if err := os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// install builds rfhandoff into dir (or copies the one PrebuiltEnv
// names) and links the simulator's names to it (hard links: no privileges
// needed on any system, and argv[0] is the name run).
func install(dir string) error {
	bin := filepath.Join(dir, "rfhandoff"+ExeSuffix)
	if pre := os.Getenv(PrebuiltEnv); pre != "" {
		b, err := os.ReadFile(pre)
		if err != nil {
			return fmt.Errorf("%s: %w", PrebuiltEnv, err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			return err
		}
	} else if err := goBuild(bin); err != nil {
		return err
	}
	for _, name := range SimulatorNames {
		if err := os.Link(bin, filepath.Join(dir, name+ExeSuffix)); err != nil {
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
