package hacksim

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"rfhandoff/hackrfcli"
)

// run calls the simulated tool in-process with HACKRF_SIM=sim and signals
// from sigs (nil: none), returning stdout, stderr and the exit code.
func run(t testing.TB, sim, tool string, sigs chan os.Signal, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	var code int
	if tool == "hackrf_transfer" {
		m, err := parseModes(sim)
		if err != nil {
			t.Fatal(err)
		}
		if sigs == nil {
			sigs = make(chan os.Signal)
		}
		code = runTransfer(tool, args, m, &out, &errb, sigs)
	} else {
		code = Main(tool, args, envWith(sim), &out, &errb)
		// Every run starts with the marker (the one deliberate
		// difference); the rest is the real tool's bytes.
		rest, ok := strings.CutPrefix(out.String(), hackrfcli.SimulatorMarker+"\n")
		if !ok {
			t.Fatalf("%s did not start its stdout with the simulator's marker:\n%s", tool, out.String())
		}
		return rest, errb.String(), code
	}
	return out.String(), errb.String(), code
}

func envWith(sim string) func(string) string {
	return func(k string) string {
		if k == "HACKRF_SIM" {
			return sim
		}
		return ""
	}
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }
