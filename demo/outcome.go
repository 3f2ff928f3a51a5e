package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"rfhandoff/config"
)

// outcome is the fields of tx execute's outcome file the verdict rests on.
type outcome struct {
	path        string
	Action      string `json:"action"`
	RFTXStarted bool   `json:"rf_tx_started"`
	RFTX        *int   `json:"rf_tx"`
}

// readOutcome shows the outcome file beside the record and checks it.
func (d *runner) readOutcome() (*outcome, error) {
	p := strings.TrimSuffix(d.record, ".json") + ".outcome.json"
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("tx execute exited 0 but its outcome file is unreadable: %w", err)
	}
	o := &outcome{path: p}
	if err := json.Unmarshal(data, o); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	d.show("outcome", data)
	return o, o.check()
}

// check is the demo's verdict: the fake action, nothing started, RF TX 0.
func (o *outcome) check() error {
	var errs []string
	if o.RFTX == nil {
		errs = append(errs, "rf_tx is missing")
	} else if *o.RFTX != 0 {
		errs = append(errs, fmt.Sprintf("rf_tx is %d, want 0", *o.RFTX))
	}
	if o.Action != "fake" {
		errs = append(errs, fmt.Sprintf("action is %q, want \"fake\"", o.Action))
	}
	if o.RFTXStarted {
		errs = append(errs, "rf_tx_started is true")
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s: %s", o.path, strings.Join(errs, "; "))
	}
	return nil
}

func (d *runner) show(label string, data []byte) {
	var b bytes.Buffer
	if json.Indent(&b, data, "", "  ") != nil {
		b.Reset()
		b.Write(data)
	}
	d.say("%s:", label)
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		d.out.line("     ", l)
	}
}

// logLines reads a log file's non-empty lines, as plain text.
func logLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kept []string
	for _, l := range strings.Split(strings.ReplaceAll(string(data), "\r", "\n"), "\n") {
		if l = plain([]byte(l)); strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return kept, nil
}

func (d *runner) showTail(path string, n int) {
	lines, err := logLines(path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			d.say("(cannot read %s: %v)", path, err)
		}
		return
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	d.say("Last lines of %s:", path)
	for _, l := range lines {
		d.out.line(sidePrefix("RX"), l)
	}
}

func ptrStr[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func (d *runner) intro() {
	mode := "interactive: you type the approvals at the real prompts"
	if d.o.Auto {
		mode = "--auto: the demo types the answers at prompts it reads on its own pseudo-terminals"
	}
	d.out.printf("rfhandoff demo (%s)\n\n"+
		"Two machines run one OTA experiment over git: the RX laptop receives and publishes\n"+
		"results, the MAIN PC authorizes and runs the TX action. Here both run on this machine,\n"+
		"in a throw-away sandbox: a local bare remote, two checkouts, and the HackRF simulator.\n"+
		"Every step runs the real rfhandoff command; nothing skips a check or a prompt, and the\n"+
		"TX action is the fake one: nothing is ever transmitted.\n", mode)
	if d.o.RXNodes > 1 {
		d.out.printf("\nWith --rx-nodes %d, %d RX nodes receive the one task (RX_NODES, PROTOCOL#several-nodes): each\n"+
			"approves and captures on its own and publishes on its own branch; MAIN asks once.\n", d.o.RXNodes, d.o.RXNodes)
	}
}

func (d *runner) describeSandbox() {
	sb := d.sb
	d.out.printf("\nSandbox: %s\n", sb.Root)
	if sb.multi() {
		d.out.line("  ", "remote.git  bare remote: "+taskBranch+" (task branch, base "+short(sb.BaseCommit)+"), "+resultBranch+" (the single-node result branch, unused),")
		d.out.line("  ", "            and one result branch per node, created by the sandbox as a lab would: "+d.nodeList(", "))
		for _, n := range sb.nodes {
			d.out.line("  ", fmt.Sprintf("%-11s RX node %s's checkout   policy %s.toml, [node] name = %q, key keys/%s;", n.Name+"/", n.Name, n.Name, n.Name, n.Name))
			d.out.line("  ", fmt.Sprintf("            its simulator hears the fake transmission %+d ms later at %+.0f dB", n.DelayMS, n.LevelDB))
		}
		d.out.line("  ", "main/       the MAIN PC's checkout     policy main.toml, one [[nodes]] table per node")
	} else {
		d.out.line("  ", "remote.git  bare remote: "+taskBranch+" (task branch, base "+short(sb.BaseCommit)+"), "+resultBranch+" (result branch)")
		d.out.line("  ", "rx/         the RX laptop's checkout   policy rx.toml")
		d.out.line("  ", "main/       the MAIN PC's checkout     policy main.toml")
	}
	d.out.line("  ", "bin/        hackrf_info, hackrf_transfer, hackrf_clock -> "+sb.Exe+" (the simulator)")
	rate, t := config.Default().Capture.SampleRateHz, d.o.Timing
	d.out.line("  ", fmt.Sprintf("timing      capture %d s in real time (%d MB of ci8 samples in the sandbox); TX needs %d s + %d s of capture left;",
		t.PlannedS, int64(t.PlannedS)*rate*2/1e6, t.TXDurationS, t.MinRemainingS))
	d.out.line("  ", fmt.Sprintf("            READY may be acted on until then: about %d s after the capture starts", t.PlannedS-t.TXDurationS-t.MinRemainingS))
	if sb.NotifyURL != "" {
		d.out.line("  ", "notify      both policies send every event to the demo's own webhook "+sb.NotifyURL+",")
		d.out.line("  ", "            signed with notify.secret; its deliveries show as "+strings.TrimSpace(notifyPrefix)+" lines after each step")
	}
}
