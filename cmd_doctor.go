package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"rfhandoff/doctor"
	"rfhandoff/exec"
	"rfhandoff/hacksim"
	"rfhandoff/localfile/private"
)

type DoctorRxCmd struct{}
type DoctorMainCmd struct{}

// Both run as exec.RoleProbe: doctor only asks, and its runner can start
// no hackrf_transfer.
func (c *DoctorRxCmd) Run(app *App) error   { return runDoctor(app, doctor.RX) }
func (c *DoctorMainCmd) Run(app *App) error { return runDoctor(app, doctor.Main) }

// runDoctor runs the checks of side and prints every finding. It writes
// nothing the checks could find afterwards: its scratch is a private
// temporary directory removed at the end (the DESIGN log, area "The host
// clock and doctor").
func runDoctor(app *App, side doctor.Side) error {
	scratch, err := os.MkdirTemp("", "rfhandoff-doctor-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	hooks, remoteDir := filepath.Join(scratch, "nohooks"), filepath.Join(scratch, "remote")
	for _, d := range []string{hooks, remoteDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	audit, recorded, err := doctorAudit(app.Policy.AuditPath(), scratch)
	if err != nil {
		return err
	}
	stack := func(protocols []string) (*exec.Stack, error) {
		o := app.stackOptions(exec.RoleProbe, audit)
		o.HooksDir = hooks
		o.GitProtocols = protocols
		return exec.New(o)
	}
	wd, _ := os.Getwd()
	fmt.Fprintf(app.Stdout, "rfhandoff doctor %s, run in %s, policy %s\n", side, wd, policySource(app.PolicyFile))
	rep, err := doctor.Run(app.Ctx, doctor.Deps{
		Side: side, Policy: app.Policy, PolicyFile: app.PolicyFile, Stack: stack, Scratch: remoteDir,
		IsSimulator: isSimulator, Environ: app.Environ,
	})
	if err != nil {
		return err
	}
	if err := rep.Write(app.Stdout); err != nil {
		return err
	}
	if recorded {
		fmt.Fprintf(app.Stdout, "%-9s  audit: doctor's subprocesses are on record in %s\n", doctor.OK, audit.Path())
	} else {
		fmt.Fprintf(app.Stdout, "%-9s  audit: doctor's subprocesses (%s) are NOT on record: there is no private audit log at %s yet, and doctor creates nothing\n",
			doctor.Note, ranTools(audit.Path()), app.Policy.AuditPath())
	}
	if n := rep.Problems(); n > 0 {
		fmt.Fprintf(app.Stdout, "%d problem(s): fix each line marked PROBLEM, then run %s again\n", n, app.CommandLine("doctor", string(side)))
		return exitCode(1, nil)
	}
	fmt.Fprintf(app.Stdout, "no problems found for the %s side\n", side)
	return nil
}

// doctorWithoutPolicy reports a policy that does not load, alone: every
// other check reads it.
func doctorWithoutPolicy(w io.Writer, side string, err error) int {
	wd, _ := os.Getwd()
	fmt.Fprintf(w, "rfhandoff doctor %s, run in %s\n", side, wd)
	rep := &doctor.Report{Side: doctor.Side(side), Findings: []doctor.Finding{{Check: "policy", Status: doctor.Problem,
		Text: fmt.Sprintf("%v\nfix it (every reason is above), then run doctor again: every other check reads the policy", err)}}}
	if rep.Write(w) == nil {
		fmt.Fprintln(w, "1 problem(s): nothing else was checked")
	}
	return 1
}

// doctorAudit is the side's own audit log when it exists as a private
// regular file, else one in scratch, thrown away with it (recorded false).
func doctorAudit(path, scratch string) (log *exec.AuditLog, recorded bool, err error) {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() &&
		private.Check(path) == nil && private.Check(filepath.Dir(path)) == nil {
		log, err := exec.OpenAuditLog(path)
		return log, err == nil, err
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("audit log %s: %w", path, err)
	}
	log, err = exec.OpenAuditLog(filepath.Join(scratch, "audit.jsonl"))
	return log, false, err
}

// ranTools names each tool a log recorded: "git ×6, timedatectl".
func ranTools(path string) string {
	entries, err := exec.ReadAuditTail(path, 10000)
	if err != nil {
		return "unknown: " + err.Error()
	}
	count := map[exec.Tool]int{}
	for _, e := range entries {
		if e.Event == exec.EventStart {
			count[e.Tool]++
		}
	}
	var out []string
	for t, n := range count {
		s := string(t)
		if n > 1 {
			s += fmt.Sprintf(" ×%d", n)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return cmp.Or(strings.Join(out, ", "), "none")
}

// isSimulator: a path hacksim cannot tell about is not the simulator.
func isSimulator(path string) bool {
	sim, err := hacksim.IsSimulator(path)
	return err == nil && sim
}
