package result

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"rfhandoff/captureplan"
	"rfhandoff/hiddentext"
	"rfhandoff/strictjson"
)

// ScheduledSchemaVersion is the schema_version of a scheduled task's result:
// alignment last (PROTOCOL#result).
const ScheduledSchemaVersion = 3

// SyncMode is alignment.sync_mode, the task's SYNC_MODE.
type SyncMode string

const (
	SyncHostClock SyncMode = "HOST_CLOCK"
	SyncPPS       SyncMode = "PPS"
	// AnySync, as Options.SyncMode, accepts results with and without
	// alignment: for readers that do not know the task.
	AnySync SyncMode = "*"
)

// Trigger is alignment.trigger: whether the board waited for the edge.
type Trigger string

const (
	TriggerHonoured Trigger = "HONOURED" // PPS: data began at an edge
	TriggerIgnored  Trigger = "IGNORED"  // PPS: data began at arming (firmware ignoring -H)
	TriggerNotUsed  Trigger = "NOT_USED" // HOST_CLOCK
)

const (
	MaxAlignTextRunes = 200 // bound_basis and each reason
	MaxAlignReasons   = 8
)

// Alignment is a scheduled result's alignment object: how well this node's
// first sample is placed in time (PROTOCOL#result).
type Alignment struct {
	SyncMode      SyncMode
	StartAt       time.Time  // the task's START_AT, a whole second
	FirstSampleAt time.Time  // as this node estimates it
	EdgeAt        *time.Time // the PPS edge identified; nil for HOST_CLOCK or none
	Trigger       Trigger
	Bound         time.Duration // bound_s: of |FirstSampleAt − the true time|
	BoundBasis    string        // what Bound adds up
	Overruns      int64         // so far; any voids alignment
	Aligned       bool
	Reasons       []string // why not aligned: empty iff Aligned
}

const keyAlignment = "alignment"

// laterKeys follow the table's keys, each checked by its own rules.
var laterKeys = []string{"node", "sigmf_meta_sha512", keyAlignment}

func alignKey(k string) string { return keyAlignment + "." + k }

const (
	layoutSecond = "2006-01-02T15:04:05Z"
	layoutNano   = "2006-01-02T15:04:05.000000000Z"
)

var (
	nanoRE    = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}Z$`)
	secondsRE = regexp.MustCompile(`^(0|[1-9][0-9]{0,8})(\.[0-9]{1,9})?$`)
)

// FormatNano writes t as first_sample_at is written (and SigMF's
// core:datetime of a scheduled capture).
func FormatNano(t time.Time) string { return t.UTC().Format(layoutNano) }

// FormatSeconds writes d ≥ 0 as bound_s is written (never an exponent).
func FormatSeconds(d time.Duration) string {
	return fmt.Sprintf("%d.%09d", d/time.Second, d%time.Second)
}

// MarshalJSON writes the object in PROTOCOL#result's order.
func (a Alignment) MarshalJSON() ([]byte, error) {
	var edge *string
	if a.EdgeAt != nil {
		edge = new(a.EdgeAt.UTC().Format(layoutSecond))
	}
	reasons := a.Reasons
	if reasons == nil {
		reasons = []string{}
	}
	return jsonText(struct {
		SyncMode      SyncMode    `json:"sync_mode"`
		StartAt       string      `json:"start_at"`
		FirstSampleAt string      `json:"first_sample_at"`
		EdgeAt        *string     `json:"edge_at"`
		Trigger       Trigger     `json:"trigger"`
		BoundS        json.Number `json:"bound_s"`
		BoundBasis    string      `json:"bound_basis"`
		Overruns      int64       `json:"overruns"`
		Aligned       bool        `json:"aligned"`
		Reasons       []string    `json:"reasons"`
	}{a.SyncMode, a.StartAt.UTC().Format(layoutSecond), FormatNano(a.FirstSampleAt), edge, a.Trigger,
		json.Number(FormatSeconds(a.Bound)), a.BoundBasis, a.Overruns, a.Aligned, reasons}, "")
}

// encodable refuses what the writer would lose or Decode could not tell.
func (a *Alignment) encodable() error {
	var p problems
	if a.StartAt.Nanosecond() != 0 {
		p.add(alignKey("start_at"), ruleValue, "must be a whole second, got %s", a.StartAt.Format(time.RFC3339Nano))
	}
	if a.EdgeAt != nil && a.EdgeAt.Nanosecond() != 0 {
		p.add(alignKey("edge_at"), ruleValue, "must be a whole second, got %s", a.EdgeAt.Format(time.RFC3339Nano))
	}
	if a.Bound < 0 {
		p.add(alignKey("bound_s"), ruleValue, "must be ≥ 0, got %v", a.Bound)
	}
	return p.err()
}

var alignFields = []strictjson.Field[Alignment]{
	{Key: "sync_mode", Check: func(a *Alignment, v value) string {
		return enum(SyncHostClock, SyncPPS)(v, &a.SyncMode)
	}},
	{Key: "start_at", Check: func(a *Alignment, v value) string {
		return wholeSecond(v, &a.StartAt)
	}},
	{Key: "first_sample_at", Check: func(a *Alignment, v value) string {
		return strictjson.Time(v, nanoRE, "a UTC time with nine fractional digits (e.g. 2026-01-02T15:04:05.000012345Z)", &a.FirstSampleAt)
	}},
	{Key: "edge_at", Check: func(a *Alignment, v value) string {
		return nullable(v, &a.EdgeAt, wholeSecond)
	}},
	{Key: "trigger", Check: func(a *Alignment, v value) string {
		return enum(TriggerHonoured, TriggerIgnored, TriggerNotUsed)(v, &a.Trigger)
	}},
	{Key: "bound_s", Check: func(a *Alignment, v value) string { return seconds(v, &a.Bound) }},
	{Key: "bound_basis", Check: func(a *Alignment, v value) string { return printable(v, &a.BoundBasis) }},
	{Key: "overruns", Check: func(a *Alignment, v value) string { return nonNegative(v, &a.Overruns) }},
	{Key: "aligned", Check: func(a *Alignment, v value) string { return strictjson.Boolean(v, &a.Aligned) }},
	{Key: "reasons", Check: func(a *Alignment, v value) string {
		if v.Kind != strictjson.Array {
			return "must be an array of strings, got " + v.Describe()
		}
		if len(v.Elements) > MaxAlignReasons {
			return fmt.Sprintf("must hold at most %d reasons, got %d", MaxAlignReasons, len(v.Elements))
		}
		out := []string{}
		var bad []string
		for i, e := range v.Elements {
			var s string
			if why := printable(e, &s); why != "" {
				bad = append(bad, fmt.Sprintf("reason %d %s", i+1, why))
				continue
			}
			out = append(out, s)
		}
		if len(bad) > 0 {
			return "must be an array of printable strings: " + strings.Join(bad, "; ")
		}
		a.Reasons = out
		return ""
	}},
}

func wholeSecond(v value, dst *time.Time) string {
	const what = "a whole UTC second (e.g. 2026-01-02T15:04:05Z)"
	s, why := strictjson.Str(v, what)
	if why != "" {
		return why
	}
	t, ok := captureplan.WholeSecond(s)
	if !ok {
		return "must be " + what + ", got " + v.Describe()
	}
	*dst = t
	return ""
}

// seconds accepts whole nanoseconds only, so the value is exact.
func seconds(v value, dst *time.Duration) string {
	const what = "a plain decimal number of seconds, 0 ≤ s < 10^9, with at most 9 fractional digits (e.g. 0.001302000)"
	if v.Kind != strictjson.Number || !secondsRE.MatchString(v.Text) {
		return "must be " + what + ", got " + v.Describe()
	}
	whole, frac, _ := strings.Cut(v.Text, ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
	*dst = time.Duration(w)*time.Second + time.Duration(f)
	return ""
}

// printable accepts 1–200 characters, none hiddentext.Hidden
// (PROTOCOL#hidden-text).
func printable(v value, dst *string) string {
	s, why := strictjson.Str(v, "a string")
	if why != "" {
		return why
	}
	n := utf8.RuneCountInString(s)
	if n == 0 || n > MaxAlignTextRunes {
		return fmt.Sprintf("must be 1–%d characters, got %d", MaxAlignTextRunes, n)
	}
	for i, r := range []rune(s) {
		if hiddentext.Hidden(r) {
			return fmt.Sprintf("must be printable text, got %U at character %d", r, i+1)
		}
	}
	*dst = s
	return ""
}

func (o Options) scheduled() bool { return o.SyncMode != "" || !o.StartAt.IsZero() }

// checkAlignment applies PROTOCOL#result's rules for a scheduled task's
// result. Nothing is said when schema_version itself is unusable.
func checkAlignment(m members, r *Result, good map[string]bool, opts Options, p *problems) {
	if !good["schema_version"] {
		return
	}
	vs := m.Values[keyAlignment]
	if r.SchemaVersion != ScheduledSchemaVersion {
		if len(vs) > 0 {
			p.add(keyAlignment, ruleUnknownKey, "unknown key in a schema_version %d result (only a scheduled task's result, schema_version %d, has it)",
				r.SchemaVersion, ScheduledSchemaVersion)
		}
		if opts.scheduled() && opts.SyncMode != AnySync {
			p.add("schema_version", ruleSync, "is %d, but the task has START_AT: its results have schema_version %d with alignment",
				r.SchemaVersion, ScheduledSchemaVersion)
		}
		return
	}
	if !opts.scheduled() {
		p.add("schema_version", ruleValue, "must be %d or %d, got %d (a scheduled task's result where the task has no START_AT)",
			SchemaVersion, NodeSchemaVersion, r.SchemaVersion)
		good["schema_version"] = false
		return
	}
	v, ok := only(m, keyAlignment, p, fmt.Sprintf("is missing (a schema_version %d result has it)", ScheduledSchemaVersion))
	if !ok {
		return
	}
	if v.Kind != strictjson.Object {
		p.add(keyAlignment, ruleValue, "must be an object, got %s", v.Describe())
		return
	}
	before := len(*p)
	a := &Alignment{}
	aGood, fps := strictjson.Fields(v.Members, alignFields, a)
	p.fields(keyAlignment+".", fps)
	checkAligned(a, aGood, p)
	if aGood["sync_mode"] && opts.SyncMode != "" && opts.SyncMode != AnySync && a.SyncMode != opts.SyncMode {
		p.add(alignKey("sync_mode"), ruleSync, "is %s, but the task's SYNC_MODE is %s", a.SyncMode, opts.SyncMode)
	}
	if aGood["start_at"] && !opts.StartAt.IsZero() && !a.StartAt.Equal(opts.StartAt) {
		p.add(alignKey("start_at"), ruleSync, "is %s, but the task's START_AT is %s",
			a.StartAt.Format(layoutSecond), opts.StartAt.UTC().Format(time.RFC3339Nano))
	}
	if len(*p) == before {
		r.Alignment = a
	}
}

func checkAligned(a *Alignment, good map[string]bool, p *problems) {
	all := func(keys ...string) bool { return !slices.ContainsFunc(keys, func(k string) bool { return !good[k] }) }
	if all("sync_mode", "edge_at") && a.SyncMode == SyncHostClock && a.EdgeAt != nil {
		p.add(alignKey("edge_at"), ruleAlign, "must be null when sync_mode is %s (no trigger edge)", SyncHostClock)
	}
	if all("sync_mode", "trigger") {
		if a.SyncMode == SyncHostClock && a.Trigger != TriggerNotUsed {
			p.add(alignKey("trigger"), ruleAlign, "must be %s when sync_mode is %s, got %s", TriggerNotUsed, SyncHostClock, a.Trigger)
		}
		if a.SyncMode == SyncPPS && a.Trigger == TriggerNotUsed {
			p.add(alignKey("trigger"), ruleAlign, "must be %s or %s when sync_mode is %s", TriggerHonoured, TriggerIgnored, SyncPPS)
		}
	}
	if !good["aligned"] {
		return
	}
	if !a.Aligned {
		if good["reasons"] && len(a.Reasons) == 0 {
			p.add(alignKey("reasons"), ruleAlign, "must give at least one reason when aligned is false")
		}
		return
	}
	if good["reasons"] && len(a.Reasons) > 0 {
		p.add(alignKey("reasons"), ruleAlign, "must be empty when aligned is true, got %d reasons", len(a.Reasons))
	}
	if good["overruns"] && a.Overruns != 0 {
		p.add(alignKey("overruns"), ruleAlign, "must be 0 when aligned is true (an overrun voids alignment), got %d", a.Overruns)
	}
	if !good["sync_mode"] || a.SyncMode != SyncPPS {
		return
	}
	if good["trigger"] && a.Trigger != TriggerHonoured {
		p.add(alignKey("trigger"), ruleAlign, "must be %s when aligned is true in %s mode, got %s", TriggerHonoured, SyncPPS, a.Trigger)
	}
	if all("edge_at", "start_at") && (a.EdgeAt == nil || !a.EdgeAt.Equal(a.StartAt)) {
		got := "null"
		if a.EdgeAt != nil {
			got = a.EdgeAt.UTC().Format(layoutSecond)
		}
		p.add(alignKey("edge_at"), ruleAlign, "must be start_at (%s) when aligned is true in %s mode, got %s", a.StartAt.UTC().Format(layoutSecond), SyncPPS, got)
	}
}
