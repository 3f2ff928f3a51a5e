package main

import (
	"fmt"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gate"
	"rfhandoff/node"
	"rfhandoff/task"
	"rfhandoff/tasknew"
)

// TaskNewCmd writes the next task file on the MAIN PC (PROTOCOL#task-new).
type TaskNewCmd struct {
	TaskID         string `arg:"" name:"TASK_ID" help:"The new task's ID: ${task_id_pattern}, never used before on the task or result branch."`
	Title          string `required:"" placeholder:"TEXT" help:"TASK_TITLE: one line of 1-200 printable characters."`
	HardwareAccess bool   `name:"hardware-access" help:"HARDWARE_ACCESS = YES (implied by --rf-rx and --rf-tx)."`
	RFRX           bool   `name:"rf-rx" help:"RF_RX = YES: the RX laptop may run its bounded capture."`
	RFTX           bool   `name:"rf-tx" help:"RF_TX = YES: the RX node itself transmits (RED; its operator must type AUTHORIZE RF TX; rx capture refuses it). A capture while the MAIN PC transmits does not set it: use --rf-rx."`
	AllowCommit    bool   `name:"allow-commit" help:"ALLOW_COMMIT = YES."`
	AllowPush      string `name:"allow-push" enum:"NO,RX_RESULT_ONLY" default:"NO" help:"ALLOW_PUSH: NO or RX_RESULT_ONLY."`
	RiskLevel      string `name:"risk-level" placeholder:"GREEN|YELLOW|RED" help:"RISK_LEVEL (default: the derived minimum; a lower one is refused, a higher one kept)."`
	NoApproval     bool   `name:"no-approval" help:"REQUIRES_APPROVAL = NO (only a GREEN task accepts it)."`
	BodyFile       string `name:"body-file" type:"path" placeholder:"FILE" help:"The Markdown body (default: a short text of what the flags allow)."`
	ExpectedHead   string `name:"expected-head" placeholder:"HASH" help:"EXPECTED_HEAD (default: the fetched task branch tip; must be an ancestor of it)."`
	FrequencyHz    string `name:"frequency-hz" placeholder:"HZ" help:"CAPTURE_FREQUENCY_HZ: the centre frequency every receiver captures at (1000000-6000000000; default: each RX policy's). Needs --rf-rx."`
	SampleRateHz   string `name:"sample-rate-hz" placeholder:"HZ" help:"CAPTURE_SAMPLE_RATE_HZ: the sample rate every receiver captures at (2000000-20000000; default: each RX policy's). Needs --rf-rx."`
	DurationS      string `name:"duration-s" placeholder:"SECONDS" help:"CAPTURE_DURATION_S: the planned capture length every receiver and the MAIN PC use (15-3600; default: each side's planned_duration_s, which must then agree). Needs --rf-rx."`
	StartAt        string `name:"start-at" placeholder:"TIME" xor:"start" help:"START_AT: the whole UTC second every receiver's first sample is due, RFC 3339 with Z (e.g. 2026-12-02T20:00:00Z); needs --sync and --duration-s. A receiver refuses it once past or closer than its sync.min_lead_s."`
	StartIn        string `name:"start-in" placeholder:"DURATION" xor:"start" help:"START_AT this long from now (e.g. 2m), rounded up to a whole second; instead of --start-at."`
	Sync           string `name:"sync" placeholder:"HOST_CLOCK|PPS" help:"SYNC_MODE: HOST_CLOCK (each node starts by its synchronised host clock) or PPS (each node arms on its GPSDO's 1PPS edge at START_AT); with --start-at or --start-in."`
	RXNodes        string `name:"rx-nodes" placeholder:"NAMES" help:"RX_NODES: the receivers of a multi-node task, comma-separated (1-8 distinct names ^[a-z0-9][a-z0-9-]{0,31}$; PROTOCOL#several-nodes)."`
	Output         string `short:"o" name:"output" type:"path" placeholder:"FILE" help:"Write here instead of the policy's task_file in the checkout."`
	Force          bool   `help:"Write the task even over a task file holding another task that has not completed, or while the current task is capturing (READY without COMPLETE on the result branch)."`
}

func (c *TaskNewCmd) Run(app *App) error {
	s := task.Spec{
		ID: c.TaskID, Title: c.Title, ExpectedHead: c.ExpectedHead,
		RequiresApproval: !c.NoApproval,
		HardwareAccess:   c.HardwareAccess || c.RFRX || c.RFTX,
		RFRX:             c.RFRX, RFTX: c.RFTX, AllowCommit: c.AllowCommit, AllowPush: c.AllowPush,
	}
	if c.RiskLevel != "" {
		l, err := gate.ParseLevel(c.RiskLevel)
		if err != nil {
			return exitCode(2, fmt.Errorf("--risk-level: %w", err))
		}
		s.Level = l
	}
	var problems []error
	for _, f := range []struct {
		flag, field, v string
		dst            *int64
	}{
		{"--frequency-hz", task.FieldCaptureFrequencyHz, c.FrequencyHz, &s.Capture.FrequencyHz},
		{"--sample-rate-hz", task.FieldCaptureSampleRateHz, c.SampleRateHz, &s.Capture.SampleRateHz},
		{"--duration-s", task.FieldCaptureDurationS, c.DurationS, &s.Capture.DurationS},
	} {
		if f.v == "" {
			continue
		}
		n, err := task.ParseCaptureValue(f.field, f.v)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", f.flag, err))
		}
		*f.dst = n
	}
	problems = append(problems, c.schedule(&s, time.Now())...)
	if c.RXNodes != "" {
		l, probs := node.ParseList(c.RXNodes)
		for _, p := range probs {
			problems = append(problems, fmt.Errorf("--rx-nodes %q: %s", c.RXNodes, p))
		}
		s.Nodes = l
	}
	if c.BodyFile == "" {
		s.Body = task.DefaultBody(s)
	} else if body, err := readTaskFile(c.BodyFile, app.Policy.Limits.MaxTaskBytes); err != nil {
		problems = append(problems, fmt.Errorf("--body-file: %w", err))
	} else {
		s.Body = string(body)
	}
	r, err := app.Stack(exec.RoleGit)
	if err != nil {
		return err
	}
	w := &tasknew.Writer{Git: app.Git(r), Policy: app.Policy, Log: app.Logger}
	out, err := w.Write(app.Ctx, tasknew.Request{Spec: s, Out: c.Output, Force: c.Force, Problems: problems})
	if err != nil {
		return err
	}
	out.Print(app.Stdout, app.Policy.Repo.Remote, app.Policy.Repo.TaskBranch)
	return nil
}

// schedule reads --start-at (or --start-in) and --sync into s
// (PROTOCOL#task-new); a START_AT not after now is refused: every receiver
// would refuse it.
func (c *TaskNewCmd) schedule(s *task.Spec, now time.Time) []error {
	var problems []error
	if c.StartIn != "" {
		d, err := time.ParseDuration(c.StartIn)
		if err != nil || d <= 0 {
			problems = append(problems, fmt.Errorf("--start-in %q: must be a positive Go duration such as 90s or 2m", c.StartIn))
		} else {
			// Rounded up, so the lead is never shorter than asked.
			s.Capture.StartAt = now.UTC().Add(d).Add(time.Second - 1).Truncate(time.Second)
		}
	}
	if c.StartAt != "" {
		at, err := task.ParseStartAt(c.StartAt)
		if err != nil {
			problems = append(problems, fmt.Errorf("--start-at: %w", err))
		}
		s.Capture.StartAt = at
	}
	if at := s.Capture.StartAt; !at.IsZero() && !at.After(now) {
		problems = append(problems, fmt.Errorf("--start-at %s is not after now (%s by this PC's clock): every receiver would refuse it; give a later START_AT",
			at.Format(time.RFC3339), now.UTC().Truncate(time.Second).Format(time.RFC3339)))
	}
	if c.Sync != "" {
		m, err := task.ParseSyncMode(c.Sync)
		if err != nil {
			problems = append(problems, fmt.Errorf("--sync: %w", err))
		}
		s.Capture.SyncMode = m
	}
	return problems
}
