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

// simulatorTools are the tools a capture runs, in the order they run.
var simulatorTools = []exec.Tool{exec.HackRFInfo, exec.HackRFClock, exec.HackRFTransfer}

// simulatorPaths says which of the runner's resolved HackRF tools are the
// running rfhandoff executable ("" for none). A runner that does not tell
// its paths (a test's fake) says nothing; the tools' marker still does.
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

// simulatorInfo is hackrf_info answering with the simulator's marker.
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

func simulatorRefusal(seen string) string {
	return seen + ": a capture by the simulator is synthetic noise, not RF, and " + config.SimulatorKey + " is false, so it is refused " +
		"(nothing was started or published). To capture with a HackRF, put the real hackrf tools first on PATH or pin " +
		"[tools] hackrf_info, hackrf_transfer and hackrf_clock to them (`rfhandoff version` shows which run); " +
		"for a rehearsal where simulation is intended, set " + config.SimulatorKey + " = true"
}

// checkSimulator applies the policy to what was seen ("" nothing), and
// records the decision in the audit log: an allowed capture does not go
// on without its line.
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
		return refuse(taskID, simulatorRefusal(seen))
	}
	d.Logger.Warn("capturing with rfhandoff's HackRF simulator, as "+config.SimulatorKey+" allows: the results, SigMF file and quick-look say simulated",
		"task_id", taskID, "seen", seen)
	return nil
}

// simulatedHWDescription is core:hw for a simulated capture emulating hw.
func simulatedHWDescription(hw string) string {
	const sim = "SIMULATED: rfhandoff's HackRF simulator, no radio"
	if hw == "" {
		return sim
	}
	return sim + " (it emulates " + hw + ")"
}

// LocalResult reads the last result written beside task id's capture,
// for rx status; nil when none can be read.
func LocalResult(p config.Policy, id string) *result.Result {
	r, _, err := result.ReadFile(filepath.Join(p.CaptureDir(), id, ResultName), result.Options{Node: result.AnyNode, SyncMode: result.AnySync})
	if err != nil {
		return nil
	}
	return r
}
