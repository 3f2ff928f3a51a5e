package capture

import (
	"fmt"
	"path/filepath"
	"strings"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/hackrfcli"
	"rfhandoff/hacksim"
	"rfhandoff/result"
)

// The simulator never passes for hardware (PROTOCOL#simulator; doc.go,
// "The simulator"): hacksim.IsSimulator on the resolved tool paths, then
// hackrfcli.SimulatorMarker in hackrf_info's and hackrf_transfer's output.

// simulatorTools are the tools a capture runs, in the order they run.
var simulatorTools = []exec.Tool{exec.HackRFInfo, exec.HackRFClock, exec.HackRFTransfer}

// simulatorPaths says which of the runner's resolved HackRF tools are the
// running rfhandoff executable, one phrase each ("" for none). A runner
// that does not tell its paths (a test's fake) says nothing here; the
// tools' own marker still does.
func simulatorPaths(r exec.Runner) string {
	pr, ok := r.(interface{ Paths() map[exec.Tool]string })
	if !ok {
		return ""
	}
	paths := pr.Paths()
	var why []string
	for _, t := range simulatorTools {
		if p := paths[t]; p != "" {
			if sim, err := hacksim.IsSimulator(p); err == nil && sim {
				why = append(why, fmt.Sprintf("%s resolves to %s, the running rfhandoff executable (its HackRF simulator)", t, p))
			}
		}
	}
	return strings.Join(why, "; ")
}

// simulatorInfo is hackrf_info's own word: it answered with the
// simulator's marker.
func simulatorInfo(info hackrfcli.Info) string {
	if !info.Simulated {
		return ""
	}
	at := ""
	if info.Path != "" {
		at = " at " + info.Path
	}
	return "hackrf_info" + at + " answered as rfhandoff's HackRF simulator"
}

// simulatorRefusal is the reason a simulated capture is refused: what was
// seen, why it matters, and the two ways on.
func simulatorRefusal(seen string) string {
	return seen + ": a capture by the simulator is synthetic noise, not RF, and " + config.SimulatorKey + " is false, so it is refused " +
		"(nothing was started or published). To capture with a HackRF, put the real hackrf tools first on PATH or pin " +
		"[tools] hackrf_info, hackrf_transfer and hackrf_clock to them (`rfhandoff version` shows which run); " +
		"for a rehearsal where simulation is intended, set " + config.SimulatorKey + " = true"
}

// checkSimulator applies the policy to what was seen ("" nothing): nil
// when the capture may go on (no simulator, or one the policy allows),
// else the refusal. Either way the audit log records the decision; an
// allowed capture does not go on without its line.
func checkSimulator(d Deps, taskID, seen string) error {
	if seen == "" {
		return nil
	}
	verdict, reason := exec.VerdictRefused, seen+"; "+config.SimulatorKey+" is false"
	if d.Policy.Tools.AllowSimulator {
		verdict, reason = exec.VerdictPassed, seen+"; "+config.SimulatorKey+" = true: simulation is intended"
	}
	if err := d.Audit.RecordDecision(exec.Decision{
		Side: exec.SideRX, Kind: exec.DecisionCaptureSimulator, Command: "rx capture",
		TaskID: taskID, Verdict: verdict, Reason: reason, Simulated: true,
	}); err != nil {
		if d.Policy.Tools.AllowSimulator {
			return fmt.Errorf("recording the simulated capture in the audit log: %w; nothing was started", err)
		}
		d.Logger.Warn("could not record the simulator's refusal in the audit log", "err", err)
	}
	if !d.Policy.Tools.AllowSimulator {
		return &refusedError{TaskID: taskID, Reasons: []string{simulatorRefusal(seen)}}
	}
	d.Logger.Warn("capturing with rfhandoff's HackRF simulator, as "+config.SimulatorKey+" allows: the results, SigMF file and quick-look say simulated",
		"task_id", taskID, "seen", seen)
	return nil
}

// simulatedHWDescription is SigMF's core:hw for a simulated capture: what
// ran, then the board it emulates (hw, "" when not known).
func simulatedHWDescription(hw string) string {
	const sim = "SIMULATED: rfhandoff's HackRF simulator, no radio"
	if hw == "" {
		return sim
	}
	return sim + " (it emulates " + hw + ")"
}

// LocalResult reads the last result written beside task id's capture
// (ResultName in <capture.dir>/<id>/) for rx status; nil when there is
// none or it cannot be read.
func LocalResult(p config.Policy, id string) *result.Result {
	r, _, err := result.ReadFile(filepath.Join(p.CaptureDir(), id, ResultName), result.Options{Node: result.AnyNode, SyncMode: result.AnySync})
	if err != nil {
		return nil
	}
	return r
}
