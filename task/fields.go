package task

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/gate"
	"rfhandoff/gitcli/gitname"
	"rfhandoff/hiddentext"
	"rfhandoff/ident"
	"rfhandoff/node"
)

// The header fields, in the order the protocol lists them.
const (
	FieldTaskID           = "TASK_ID"
	FieldTitle            = "TASK_TITLE"
	FieldSourceBranch     = "SOURCE_BRANCH"
	FieldExpectedHead     = "EXPECTED_HEAD"
	FieldRequiresApproval = "REQUIRES_APPROVAL"
	FieldHardwareAccess   = "HARDWARE_ACCESS"
	FieldRFRX             = "RF_RX"
	FieldRFTX             = "RF_TX"
	FieldAllowCommit      = "ALLOW_COMMIT"
	FieldAllowPush        = "ALLOW_PUSH"
	FieldRiskLevel        = "RISK_LEVEL"
	// The optional fields: the receivers of a multi-node task
	// (PROTOCOL#several-nodes) and what they capture (PROTOCOL#task-file);
	// absent, the single node and its policy.
	FieldRXNodes             = "RX_NODES"
	FieldCaptureFrequencyHz  = captureplan.FieldFrequencyHz
	FieldCaptureSampleRateHz = captureplan.FieldSampleRateHz
	FieldCaptureDurationS    = captureplan.FieldDurationS
	// The schedule (PROTOCOL#task-file): when the receivers' first sample
	// is due and how they start on it; both or neither.
	FieldStartAt  = captureplan.FieldStartAt
	FieldSyncMode = captureplan.FieldSyncMode
)

// captureFields, and every optional field that needs RF_RX = YES, in the order written.
var captureFields = []string{FieldCaptureFrequencyHz, FieldCaptureSampleRateHz, FieldCaptureDurationS}
var rxOnlyFields = []string{FieldCaptureFrequencyHz, FieldCaptureSampleRateHz, FieldCaptureDurationS, FieldStartAt, FieldSyncMode}

// fields lists every header field in protocol order; all are required.
var fields = []string{
	FieldTaskID, FieldTitle, FieldSourceBranch, FieldExpectedHead,
	FieldRequiresApproval, FieldHardwareAccess, FieldRFRX, FieldRFTX,
	FieldAllowCommit, FieldAllowPush, FieldRiskLevel,
}

const (
	PushNo           = "NO"
	PushRXResultOnly = "RX_RESULT_ONLY"
)

const maxTitleRunes = 200

// setter checks one field's value and stores it; it returns what is wrong, or "".
type setter func(t *Task, v string, opts Options) string

var setters = map[string]setter{
	FieldTaskID: text(func(t *Task) *string { return &t.ID },
		matching(ident.TaskID.MatchString, "must match "+ident.TaskID.String())),
	FieldTitle: text(func(t *Task) *string { return &t.Title }, func(v string, _ Options) string { return checkTitle(v) }),
	FieldSourceBranch: text(func(t *Task) *string { return &t.SourceBranch }, func(v string, opts Options) string {
		if opts.TaskBranch != "" {
			if v != opts.TaskBranch {
				return fmt.Sprintf("must equal the configured task branch %s", quote(opts.TaskBranch))
			}
		} else if why := gitname.Branch(v); why != "" {
			return "must be a branch name: " + why
		}
		return ""
	}),
	FieldExpectedHead: text(func(t *Task) *string { return &t.ExpectedHead },
		matching(ident.Commit.MatchString, "must be a full commit ID: 40 lowercase hex digits")),
	FieldRequiresApproval: yesNo(func(t *Task) *bool { return &t.RequiresApproval }),
	FieldHardwareAccess:   yesNo(func(t *Task) *bool { return &t.HardwareAccess }),
	FieldRFRX:             yesNo(func(t *Task) *bool { return &t.RFRX }),
	FieldRFTX:             yesNo(func(t *Task) *bool { return &t.RFTX }),
	FieldAllowCommit:      yesNo(func(t *Task) *bool { return &t.AllowCommit }),
	FieldAllowPush: text(func(t *Task) *string { return &t.AllowPush },
		matching(func(v string) bool { return v == PushNo || v == PushRXResultOnly }, "must be NO or RX_RESULT_ONLY")),
	FieldRiskLevel: func(t *Task, v string, _ Options) string {
		l, err := gate.ParseLevel(v)
		if err != nil {
			return "must be GREEN, YELLOW or RED"
		}
		t.DeclaredLevel = l
		return ""
	},
	FieldRXNodes: func(t *Task, v string, _ Options) string {
		l, probs := node.ParseList(v)
		if probs != nil {
			return fmt.Sprintf("must list 1–%d distinct node names matching %s, separated by commas: %s",
				node.Max, node.Pattern(), strings.Join(probs, "; "))
		}
		t.Nodes = l
		return ""
	},
	FieldCaptureFrequencyHz: integer(func(t *Task) *int64 { return &t.Capture.FrequencyHz },
		captureplan.MinFrequencyHz, captureplan.MaxFrequencyHz, "Hz, the HackRF One's range"),
	FieldCaptureSampleRateHz: integer(func(t *Task) *int64 { return &t.Capture.SampleRateHz },
		captureplan.MinSampleRateHz, captureplan.MaxSampleRateHz, "Hz, hackrf_transfer's rates"),
	FieldCaptureDurationS: integer(func(t *Task) *int64 { return &t.Capture.DurationS },
		captureplan.MinDurationS, captureplan.MaxDurationS, "seconds, a planned capture's bounds"),
	FieldStartAt: func(t *Task, v string, _ Options) string {
		at, ok := captureplan.WholeSecond(v)
		if !ok {
			return "must be a whole UTC second in RFC 3339 with Z, e.g. 2026-12-02T20:00:00Z (no fraction, no other offset)"
		}
		t.Capture.StartAt = at
		return ""
	},
	FieldSyncMode: text(func(t *Task) *string { return &t.Capture.SyncMode },
		matching(func(v string) bool { return slices.Contains(captureplan.SyncModes, v) },
			"must be "+strings.Join(captureplan.SyncModes, " or "))),
}

// text is a field stored as written once check passes it.
func text(field func(*Task) *string, check func(v string, opts Options) string) setter {
	return func(t *Task, v string, opts Options) string {
		msg := check(v, opts)
		if msg == "" {
			*field(t) = v
		}
		return msg
	}
}

func matching(ok func(string) bool, msg string) func(string, Options) string {
	return func(v string, _ Options) string { return pick(!ok(v), msg, "") }
}

// integer is a field holding a whole number from lo to hi written as
// plain decimal digits: no sign, no leading zero, no separator, no unit.
// ParseInt takes a sign and leading zeros, so the first digit is checked.
func integer(field func(*Task) *int64, lo, hi int64, what string) setter {
	return func(t *Task, v string, _ Options) string {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || v[0] < '1' || v[0] > '9' || n < lo || n > hi {
			return fmt.Sprintf("must be a whole number from %d to %d (%s) in plain digits", lo, hi, what)
		}
		*field(t) = n
		return ""
	}
}

func yesNo(field func(*Task) *bool) setter {
	return func(t *Task, v string, _ Options) string {
		if v != "YES" && v != "NO" {
			return "must be YES or NO"
		}
		*field(t) = v == "YES"
		return ""
	}
}

// checkTitle enforces one line of 1–200 printable characters: a title is shown in one line,
// so a character a terminal does not show as itself (hiddentext.Hidden, PROTOCOL#hidden-text)
// makes it invalid, named with its position so the author can find it.
func checkTitle(v string) string {
	if v == "" {
		return "must not be empty"
	}
	runes := []rune(v)
	if len(runes) > maxTitleRunes {
		return fmt.Sprintf("is %d characters long, over the limit of %d", len(runes), maxTitleRunes)
	}
	var hidden []string
	for i, r := range runes {
		if hiddentext.Hidden(r) {
			hidden = append(hidden, fmt.Sprintf("%U at character %d", r, i+1))
		}
	}
	switch n := len(hidden); {
	case n > maxPositions:
		return fmt.Sprintf("holds characters a terminal does not show: %s and %d more", strings.Join(hidden[:maxPositions], ", "), n-maxPositions)
	case n > 0:
		return "holds characters a terminal does not show: " + strings.Join(hidden, ", ")
	}
	return ""
}

const maxPositions = 10

// ParseCaptureValue reads one CAPTURE_* value written outside a header (task new's flags) by
// the header's rule.
func ParseCaptureValue(field, v string) (int64, error) {
	if !slices.Contains(captureFields, field) {
		return 0, fmt.Errorf("%s is not a capture field", field)
	}
	t, err := setOne(field, v)
	return max(t.Capture.FrequencyHz, t.Capture.SampleRateHz, t.Capture.DurationS), err
}

// ParseStartAt reads a START_AT value (task new's --start-at) by the header's rule.
func ParseStartAt(v string) (time.Time, error) {
	t, err := setOne(FieldStartAt, v)
	return t.Capture.StartAt, err
}

// ParseSyncMode reads a SYNC_MODE value (task new's --sync) by the header's rule.
func ParseSyncMode(v string) (string, error) {
	t, err := setOne(FieldSyncMode, v)
	return t.Capture.SyncMode, err
}

// setOne applies field's rule to v alone; on error the Task is zero.
func setOne(field, v string) (Task, error) {
	var t Task
	if msg := setters[field](&t, v, Options{}); msg != "" {
		return Task{}, invalidValue(0, field, v, msg)
	}
	return t, nil
}
