package task

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/gate"
	"rfhandoff/node"
)

// Spec is a task file to write: the header's values and the body.
type Spec struct {
	ID               string
	Title            string
	SourceBranch     string
	ExpectedHead     string
	RequiresApproval bool
	HardwareAccess   bool
	RFRX             bool
	RFTX             bool
	AllowCommit      bool
	AllowPush        string           // PushNo or PushRXResultOnly
	Level            gate.Level       // RISK_LEVEL; zero means the level the flags derive
	Nodes            node.List        // RX_NODES (PROTOCOL#several-nodes); zero writes none
	Capture          captureplan.Task // the optional capture fields; zero values write none
	Body             string
}

func (s Spec) level() gate.Level {
	if s.Level != 0 {
		return s.Level
	}
	t := Task{HardwareAccess: s.HardwareAccess, RFRX: s.RFRX, RFTX: s.RFTX, AllowCommit: s.AllowCommit, AllowPush: s.AllowPush}
	return gate.Derive(t.Flags())
}

// Build renders s and validates the rendered bytes with Parse, the parser the RX side reads
// them with, so what is written is exactly what the RX laptop will accept.
func Build(s Spec, opts Options) ([]byte, *Task, error) {
	data, probs := render(s)
	t, err := Parse(data, opts)
	if err != nil {
		var ie *InvalidError
		if !errors.As(err, &ie) {
			return nil, nil, err
		}
		rendered := probs
		for _, p := range ie.Problems() {
			// A value that could not be rendered was written empty; the
			// parser's complaint about that would only repeat the reason.
			if !slices.ContainsFunc(rendered, func(r *fieldError) bool { return r.Field == p.Field }) {
				probs = append(probs, p)
			}
		}
	}
	if len(probs) > 0 {
		// In line order, as Parse reports; file-level problems last.
		slices.SortStableFunc(probs, func(a, b *fieldError) int { return cmp.Compare(lineKey(a), lineKey(b)) })
		return nil, nil, invalid(probs...)
	}
	if err := sameAsSpec(t, s); err != nil {
		return nil, nil, err
	}
	return data, t, nil
}

// startAtText writes t in START_AT's form, keeping a fraction of a second for Parse to name.
func startAtText(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() != 0 {
		return t.Format(time.RFC3339Nano)
	}
	return t.Format(captureplan.StartAtLayout)
}

func lineKey(e *fieldError) int {
	if e.Line == 0 {
		return math.MaxInt
	}
	return e.Line
}

// render writes the header in protocol order, a blank line and the body. A value that cannot
// be one header line as written is written empty and reported; only a required field's
// reason names its line, as an optional field's line depends on which others are written.
func render(s Spec) ([]byte, []*fieldError) {
	values := map[string]string{
		FieldTaskID:           s.ID,
		FieldTitle:            s.Title,
		FieldSourceBranch:     s.SourceBranch,
		FieldExpectedHead:     s.ExpectedHead,
		FieldRequiresApproval: yn(s.RequiresApproval),
		FieldHardwareAccess:   yn(s.HardwareAccess),
		FieldRFRX:             yn(s.RFRX),
		FieldRFTX:             yn(s.RFTX),
		FieldAllowCommit:      yn(s.AllowCommit),
		FieldAllowPush:        s.AllowPush,
		FieldRiskLevel:        s.level().String(),
	}
	if s.Nodes.Len() > 0 {
		values[FieldRXNodes] = s.Nodes.String()
	}
	for i, v := range []int64{s.Capture.FrequencyHz, s.Capture.SampleRateHz, s.Capture.DurationS} {
		if v != 0 {
			// Parse judges the value.
			values[captureFields[i]] = strconv.FormatInt(v, 10)
		}
	}
	if !s.Capture.StartAt.IsZero() {
		// Written as the header's one form; Parse refuses a fraction.
		values[FieldStartAt] = startAtText(s.Capture.StartAt)
	}
	if s.Capture.SyncMode != "" {
		values[FieldSyncMode] = s.Capture.SyncMode
	}
	var b strings.Builder
	var errs []*fieldError
	for i, f := range slices.Concat(fields, []string{FieldRXNodes}, rxOnlyFields) {
		v, ok := values[f]
		if !ok {
			continue
		}
		if msg := lineProblem(v); msg != "" {
			line := 0
			if i < len(fields) {
				line = i + 1
			}
			errs = append(errs, invalidValue(line, f, v, msg))
			v = ""
		}
		fmt.Fprintf(&b, "%s = %s\n", f, v)
	}
	b.WriteString("\n")
	b.WriteString(s.Body)
	return []byte(b.String()), errs
}

func lineProblem(v string) string {
	switch {
	case strings.ContainsAny(v, "\r\n"):
		return "must be one line (it holds a line break)"
	case v != strings.Trim(v, " \t"):
		return "must not start or end with a space or tab (the header trims them)"
	}
	return ""
}

// sameAsSpec checks that the parsed header says what was asked: a difference is a bug in
// render, never something to write.
func sameAsSpec(t *Task, s Spec) error {
	got := Spec{ID: t.ID, Title: t.Title, SourceBranch: t.SourceBranch, ExpectedHead: t.ExpectedHead,
		RequiresApproval: t.RequiresApproval, HardwareAccess: t.HardwareAccess, RFRX: t.RFRX, RFTX: t.RFTX,
		AllowCommit: t.AllowCommit, AllowPush: t.AllowPush, Level: t.DeclaredLevel, Nodes: t.Nodes, Capture: t.Capture, Body: t.Body}
	want := s
	want.Level = s.level()
	// The same instant in the header's form (UTC, no monotonic reading).
	want.Capture.StartAt = want.Capture.StartAt.UTC().Round(0)
	if got != want {
		return fmt.Errorf("the rendered task file does not parse back to what was asked (got %+v, want %+v)", got, want)
	}
	return nil
}

// DefaultBody is the body of a task written without one: what the header allows, in words.
func DefaultBody(s Spec) string {
	var b strings.Builder
	b.WriteString("## What this task allows the RX laptop\n\n")
	fmt.Fprintf(&b, "- HARDWARE_ACCESS = %s: %s\n", yn(s.HardwareAccess),
		pick(s.HardwareAccess, "it may open its HackRF.", "it opens no SDR hardware."))
	fmt.Fprintf(&b, "- RF_RX = %s: %s\n", yn(s.RFRX),
		pick(s.RFRX, "it may run the bounded capture of its policy.", "it receives nothing."))
	fmt.Fprintf(&b, "- RF_TX = %s: %s\n", yn(s.RFTX),
		pick(s.RFTX, "the task involves RF transmission; the RX operator must type AUTHORIZE RF TX.",
			"it transmits nothing."))
	if c := s.Capture; !c.IsZero() {
		b.WriteString("- What every receiver captures (the rest is its policy's):")
		for i, v := range []int64{c.FrequencyHz, c.SampleRateHz, c.DurationS} {
			if v != 0 {
				fmt.Fprintf(&b, " %s = %d;", captureFields[i], v)
			}
		}
		b.WriteString(" outside a receiver's allowed ranges, that receiver refuses the task.\n")
	}
	if c := s.Capture; !c.StartAt.IsZero() {
		fmt.Fprintf(&b, "- START_AT = %s, SYNC_MODE = %s: every receiver's first sample is due at that second; a receiver refuses the task when it is past or too close (its sync.min_lead_s), and a missed START_AT needs a new task with a new TASK_ID.\n",
			startAtText(c.StartAt), c.SyncMode)
	}
	fmt.Fprintf(&b, "- ALLOW_COMMIT = %s: %s\n", yn(s.AllowCommit),
		pick(s.AllowCommit, "it may commit in its checkout.", "it commits nothing."))
	fmt.Fprintf(&b, "- ALLOW_PUSH = %s: %s\n", s.AllowPush,
		pick(s.AllowPush == PushRXResultOnly, "it may push RX_RESULT.json and RX_RESULT.md to the result branch, nothing else.",
			"it pushes nothing."))
	return b.String()
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

func yn(b bool) string { return pick(b, "YES", "NO") }
