package tasktest

import (
	"fmt"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/gate"
	"rfhandoff/result"
	"rfhandoff/task"
)

// The protocol's default names (config.Default's repo table).
const (
	TaskBranch   = "video-development"
	ResultBranch = "rx-node"
	TaskPath     = "docs/handoff/NEXT_RX_TASK.md"
	ResultPath   = "docs/handoff/results/RX_RESULT.json"
	ResultMDPath = "docs/handoff/results/RX_RESULT.md"
)

// TaskSpec describes a task file. The zero value (with an ID and an
// EXPECTED_HEAD) is a valid GREEN task.
type TaskSpec struct {
	ID           string
	Title        string // default "Test task <ID>"
	SourceBranch string // default TaskBranch
	ExpectedHead string // written as is (the fixtures fill in their base commit)
	// Level is the RISK_LEVEL. With no flag set it brings the level's
	// usual flags: YELLOW a capture that may publish its result
	// (HARDWARE_ACCESS, RF_RX, ALLOW_PUSH = RX_RESULT_ONLY), RED one that
	// also transmits (RF_TX). Unset, it is derived from the flags.
	Level    gate.Level
	Requires string // REQUIRES_APPROVAL; default YES

	HardwareAccess, RFRX, RFTX, AllowCommit bool
	AllowPush                               string // default task.PushNo

	// RXNodes is written as RX_NODES when set (PROTOCOL#several-nodes).
	RXNodes string
	// CaptureDurationS is written as CAPTURE_DURATION_S when set
	// (PROTOCOL#task-file).
	CaptureDurationS int64
	// StartAt and SyncMode are written as START_AT and SYNC_MODE when set,
	// as they are (PROTOCOL#task-file).
	StartAt, SyncMode string

	Body string // default: a short paragraph
}

// Capture is the usual YELLOW capture task id: it receives and may
// publish its result.
func Capture(id string) TaskSpec { return TaskSpec{ID: id, Level: gate.Yellow} }

// TaskFile renders s as a NEXT_RX_TASK.md.
func TaskFile(s TaskSpec) string {
	yn := func(b bool) string {
		if b {
			return "YES"
		}
		return "NO"
	}
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	noFlags := !s.HardwareAccess && !s.RFRX && !s.RFTX && !s.AllowCommit && s.AllowPush == ""
	if noFlags && s.Level >= gate.Yellow {
		s.HardwareAccess, s.RFRX, s.AllowPush = true, true, task.PushRXResultOnly
		s.RFTX = s.Level == gate.Red
	}
	level := s.Level
	if !level.Valid() {
		switch {
		case s.RFTX:
			level = gate.Red
		case s.HardwareAccess || s.RFRX || s.AllowCommit || s.AllowPush == task.PushRXResultOnly:
			level = gate.Yellow
		default:
			level = gate.Green
		}
	}
	var b strings.Builder
	for _, kv := range [][2]string{
		{task.FieldTaskID, s.ID},
		{task.FieldTitle, or(s.Title, "Test task "+s.ID)},
		{task.FieldSourceBranch, or(s.SourceBranch, TaskBranch)},
		{task.FieldExpectedHead, s.ExpectedHead},
		{task.FieldRequiresApproval, or(s.Requires, "YES")},
		{task.FieldHardwareAccess, yn(s.HardwareAccess)},
		{task.FieldRFRX, yn(s.RFRX)},
		{task.FieldRFTX, yn(s.RFTX)},
		{task.FieldAllowCommit, yn(s.AllowCommit)},
		{task.FieldAllowPush, or(s.AllowPush, task.PushNo)},
		{task.FieldRiskLevel, level.String()},
	} {
		fmt.Fprintf(&b, "%s = %s\n", kv[0], kv[1])
	}
	if s.RXNodes != "" {
		fmt.Fprintf(&b, "%s = %s\n", task.FieldRXNodes, s.RXNodes)
	}
	if s.CaptureDurationS != 0 {
		fmt.Fprintf(&b, "%s = %d\n", captureplan.FieldDurationS, s.CaptureDurationS)
	}
	if s.StartAt != "" {
		fmt.Fprintf(&b, "%s = %s\n", captureplan.FieldStartAt, s.StartAt)
	}
	if s.SyncMode != "" {
		fmt.Fprintf(&b, "%s = %s\n", captureplan.FieldSyncMode, s.SyncMode)
	}
	b.WriteString("\n")
	b.WriteString(or(s.Body, "## Goal\n\nA test task for "+s.ID+".\n"))
	return b.String()
}

// Ready is a READY result for task id from a checkout at sourceHead that
// passes every check under p at now: published at now, the capture
// started running before it, p's planned duration and capture settings.
func Ready(id, sourceHead string, p config.Policy, now time.Time, running time.Duration) *result.Result {
	return &result.Result{
		SchemaVersion: result.SchemaVersion, TaskID: id, State: result.StateReady,
		SourceHead: sourceHead, PublishedAt: now, CaptureStartedAt: now.Add(-running),
		PlannedDurationS: int64(p.Limits.PlannedDurationS),
		FrequencyHz:      p.Capture.FrequencyHz, SampleRateHz: p.Capture.SampleRateHz,
		RXReadyForTX: true, ProcessAlive: true, FileGrowing: true, CommonClockVerified: true,
		CapturePID: 4242,
	}
}
