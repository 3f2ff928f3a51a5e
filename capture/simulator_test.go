package capture

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/publishtest"
	"rfhandoff/state"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestCaptureSimulatorRefused: without [tools] allow_simulator a capture
// by rfhandoff's simulator is refused before READY, whichever sign gives
// it away: the tools' paths (the running executable, before any tool
// runs), hackrf_info's answer, or hackrf_transfer's first line. The
// refusal names the tool and the key; nothing is published and no capture
// file is left.
func TestCaptureSimulatorRefused(t *testing.T) {
	tests := []struct {
		name string
		// tools returns the three tools' paths; nil keeps the simulator
		// TestMain links (the test binary itself).
		tools    func(t *testing.T) map[exec.Tool]string
		want     []string
		info     bool // hackrf_info ran
		transfer bool // hackrf_transfer ran
	}{
		{name: "the running executable", want: []string{"hackrf_info resolves to", "the running rfhandoff executable", "[tools] allow_simulator is false", "= true"}},
		{name: "a copy: hackrf_info's answer", tools: copiedSimulator,
			want: []string{"hackrf_info at ", "answered as rfhandoff's HackRF simulator", "[tools] allow_simulator"}, info: true},
		{name: "only hackrf_transfer", tools: realLookingInfoAndClock,
			want: []string{"hackrf_transfer answered as rfhandoff's HackRF simulator", "[tools] allow_simulator"}, info: true, transfer: true},
	}
	if runtime.GOOS == "windows" {
		// The tools TestMain installs are hard links, and under Wine a hard
		// link has a file index of its own (hacksim's TestIsSimulator): the
		// running executable is given away by hackrf_info's answer there.
		tests[0].want, tests[0].info = tests[1].want, true
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var runner []func(*exec.Options)
			if tt.tools != nil {
				tools := tt.tools(t)
				runner = append(runner, func(o *exec.Options) {
					for k, v := range tools {
						o.Tools[k] = v
					}
				})
			}
			w := newWorld(t, "", publishtest.Options{}, func(p *config.Policy) { p.Tools.AllowSimulator = false }, runner...)
			refs := w.Refs(t)
			rep, err := w.run(t, t.Context(), opts())
			var re *refusedError
			if !errors.As(err, &re) || rep != nil {
				t.Fatalf("err = %v (report %v), want *refusedError", err, rep)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("refusal lacks %q:\n%v", want, err)
				}
			}
			if got := w.Refs(t); got != refs {
				t.Errorf("remote refs changed (READY?):\n%s\n->\n%s", refs, got)
			}
			if files, _ := filepath.Glob(filepath.Join(w.Policy.CaptureDir(), publishtest.TaskID, "*")); len(files) != 0 {
				t.Errorf("a refused capture left files: %v", files)
			}
			if ran := len(w.auditStarts(t, exec.HackRFInfo)) > 0; ran != tt.info {
				t.Errorf("hackrf_info ran: %v, want %v", ran, tt.info)
			}
			if ran := len(w.auditStarts(t, exec.HackRFTransfer)) > 0; ran != tt.transfer {
				t.Errorf("hackrf_transfer ran: %v, want %v", ran, tt.transfer)
			}
			if ds := w.decisions(t, exec.DecisionCaptureSimulator); len(ds) != 1 || ds[0].Verdict != exec.VerdictRefused || !ds[0].Simulated {
				t.Errorf("capture_simulator decisions %+v, want one refused", ds)
			}
			if st, err := state.LoadRX(w.StateDir); err != nil || st.CaptureInProgress != nil {
				t.Errorf("capture_in_progress left: %+v (%v)", st.CaptureInProgress, err)
			}
		})
	}
}

// copiedSimulator copies the test binary (the simulator) under the three
// tools' names: not the running executable's file, so only the tools' own
// marker gives it away.
func copiedSimulator(t *testing.T) map[exec.Tool]string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := map[exec.Tool]string{}
	for _, tool := range simulatorTools {
		p := filepath.Join(dir, string(tool)+exeSuffix())
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
		out[tool] = p
	}
	return out
}

// realLookingInfoAndClock answers hackrf_info and hackrf_clock -i with
// Debian's tools' bytes (the reference transcripts), and hackrf_transfer
// with a copy of the simulator: only the transfer's first line tells.
func realLookingInfoAndClock(t *testing.T) map[exec.Tool]string {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in tools are shell scripts")
	}
	out := copiedSimulator(t)
	dir := t.TempDir()
	for tool, transcript := range map[exec.Tool]string{
		exec.HackRFInfo: "info/debian-one-board.txtar", exec.HackRFClock: "clock/debian-detected.txtar",
	} {
		a, err := txtar.ParseFile(filepath.Join("..", "hackrfcli", "testdata", "transcripts", transcript))
		if err != nil {
			t.Fatal(err)
		}
		var stdout []byte
		for _, f := range a.Files {
			if f.Name == "stdout" {
				stdout = f.Data
			}
		}
		text := filepath.Join(dir, string(tool)+".out")
		if err := os.WriteFile(text, stdout, 0o644); err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(dir, string(tool))
		if err := os.WriteFile(script, []byte("#!/bin/sh\nexec /bin/cat '"+text+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		out[tool] = script
	}
	return out
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
