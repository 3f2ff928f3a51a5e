//go:build !windows

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
)

// The first run of firstrun_test.go with both machines on the Windows
// binary under Wine: rfhandoff.exe, git.exe (scripts/build-git-windows.sh)
// and the simulator's hackrf_transfer.exe, driven from here as an operator
// at a console would: each terminal session is a raw-mode pty holding all
// three standard handles, which Wine's console reads as a terminal
// emulator's keys. The lab's remote is a Linux
// git daemon on 127.0.0.1 (git.exe reaches file:// remotes only through a
// shell, which Wine has not), and the policies' paths are the Z:\ drive
// Wine maps / to. scripts/test-windows.sh runs it with its Wine prefix.
const (
	// wineEnv names the wine64 that runs Windows programs.
	wineEnv = "RFHANDOFF_WINE"
	// wineBinEnv names the directory holding rfhandoff.exe and its copies
	// hackrf_info.exe and hackrf_transfer.exe (the simulator).
	wineBinEnv = "RFHANDOFF_WINE_BIN"
)

func TestFirstRunUnderWine(t *testing.T) {
	wine, bin := os.Getenv(wineEnv), os.Getenv(wineBinEnv)
	if wine == "" || bin == "" {
		t.Skipf("%s and %s are not set: scripts/test-windows.sh runs this in its Wine prefix with the Windows binary", wineEnv, wineBinEnv)
	}
	// Each git.exe under Wine starts slowly (a publish is about twenty of
	// them): the capture is planned as long as the built-in default, so
	// that a READY published late still has more than min_remaining_s left
	// when tx watch reads it, and a READY may be as old as the policy
	// allows when tx watch and tx execute read it.
	edits := map[string]string{"limits.planned_duration_s": "120", "limits.max_publication_age_s": "300"}
	for k, v := range firstRunEdits {
		if _, ok := edits[k]; !ok {
			edits[k] = v
		}
	}
	firstRun(t, examplePolicy(t, edits), platform{
		launch:  []string{wine, filepath.Join(bin, "rfhandoff.exe")},
		console: true,
		// The documents' git lines run git.exe, found on WINEPATH.
		shPrelude: `git() { "$` + wineEnv + `" git.exe "$@"; }; `,
		env: func(t *testing.T, home string, env []string) []string {
			// Wine hands Windows programs no HOME: git.exe finds the
			// operator's identity in XDG_CONFIG_HOME\git\config.
			cfg, err := os.ReadFile(filepath.Join(home, ".gitconfig"))
			if err != nil {
				t.Fatal(err)
			}
			gittest.WriteFiles(t, filepath.Join(home, ".config"), map[string]string{"git/config": string(cfg)})
			env = setEnv(env, "XDG_CONFIG_HOME", winePath(filepath.Join(home, ".config")))
			env = setEnv(env, "WINEPATH", winePath(bin)+";"+os.Getenv("WINEPATH"))
			return append(env, wineEnv+"="+wine)
		},
		url: func(t *testing.T, srv, _ string, env []string) string {
			return gittest.StartDaemon(t, srv, env).URL("lab.git")
		},
		path: winePath,
		// Wine's console draws the space after ">" as a cursor move.
		prompt: ">",
		// Ctrl-C typed at the console (README: tx watch exits 0 on a clean stop):
		// the terminal's line discipline turns it into SIGINT (Wine's
		// console raises no Ctrl-C event from a raw 0x03), which Wine
		// delivers to rfhandoff.exe as CTRL_C_EVENT; tx watch stops
		// cleanly, exit 0, as on Linux.
		stopWatch: func(s *prompttest.Session) int {
			s.Type("\x03")
			return 0
		},
	}, pace{})
}

// winePath is p on Wine's Z: drive, the whole Linux file system.
func winePath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

// setEnv returns env with key set to value, any earlier value dropped.
func setEnv(env []string, key, value string) []string {
	var out []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
