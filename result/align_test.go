package result

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

var startAt = time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)

// sampleAlignment is an aligned node's alignment in mode.
func sampleAlignment(mode SyncMode) *Alignment {
	a := &Alignment{
		SyncMode: mode, StartAt: startAt,
		FirstSampleAt: startAt.Add(1302 * time.Nanosecond),
		Trigger:       TriggerNotUsed,
		Bound:         1302 * time.Microsecond,
		BoundBasis:    "chrony: |offset| 0.000012 + root dispersion 0.000340 + root delay/2 0.000150; start latency 0.000800",
		Aligned:       true,
	}
	if mode == SyncPPS {
		a.EdgeAt, a.Trigger = new(startAt), TriggerHonoured
		a.Bound, a.BoundBasis = 50*time.Nanosecond, "PPS edge: one sample period 0.000000050"
		a.FirstSampleAt = startAt
	}
	return a
}

func scheduledComplete(mode SyncMode) *Result {
	r := sampleComplete()
	r.Alignment = sampleAlignment(mode)
	return r
}

func encodeScheduled(t testing.TB, r *Result, node string) []byte {
	t.Helper()
	var out []byte
	var err error
	if node == "" {
		out, err = Encode(r)
	} else {
		out, err = EncodeNode(r, NodeFields{Node: node, SigMFMetaSHA512: new(strings.Repeat("ab", 64))})
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withAlign replaces the value of alignment's key in a canonical
// scheduled result (one member per line, four spaces in) with raw JSON.
func withAlign(t testing.TB, doc []byte, key, raw string) []byte {
	t.Helper()
	lines := strings.Split(string(doc), "\n")
	prefix := `    "` + key + `": `
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			comma := ""
			if strings.HasSuffix(l, ",") {
				comma = ","
			}
			lines[i] = prefix + raw + comma
			return []byte(strings.Join(lines, "\n"))
		}
	}
	t.Fatalf("alignment key %q not in\n%s", key, doc)
	return nil
}

// PROTOCOL#result: a scheduled result is the version 1 (or node) document
// with schema_version 3 and alignment last, its keys in order.
func TestEncodeScheduled(t *testing.T) {
	v1, err := Encode(sampleComplete())
	if err != nil {
		t.Fatal(err)
	}
	out := encodeScheduled(t, scheduledComplete(SyncHostClock), "")
	want := bytes.Replace(v1, []byte(`"schema_version": 1,`), []byte(`"schema_version": 3,`), 1)
	want = bytes.Replace(want, []byte("\"rf_tx\": 0\n}"), []byte(`"rf_tx": 0,
  "alignment": {
    "sync_mode": "HOST_CLOCK",
    "start_at": "2026-07-01T09:00:00Z",
    "first_sample_at": "2026-07-01T09:00:00.000001302Z",
    "edge_at": null,
    "trigger": "NOT_USED",
    "bound_s": 0.001302000,
    "bound_basis": "chrony: |offset| 0.000012 + root dispersion 0.000340 + root delay/2 0.000150; start latency 0.000800",
    "overruns": 0,
    "aligned": true,
    "reasons": []
  }
}`), 1)
	if !bytes.Equal(out, want) {
		t.Errorf("Encode:\n%s\nwant\n%s", out, want)
	}

	// A node result: node keys, then alignment.
	node := encodeScheduled(t, scheduledComplete(SyncPPS), "rx-b")
	if !bytes.Contains(node, []byte("\"rf_tx\": 0,\n  \"node\": \"rx-b\",\n  \"sigmf_meta_sha512\": \""+strings.Repeat("ab", 64)+"\",\n  \"alignment\": {\n    \"sync_mode\": \"PPS\",")) ||
		!bytes.Contains(node, []byte(`"edge_at": "2026-07-01T09:00:00Z",`)) || !bytes.Contains(node, []byte(`"bound_s": 0.000000050,`)) ||
		!bytes.HasPrefix(node, []byte("{\n  \"schema_version\": 3,")) {
		t.Errorf("EncodeNode:\n%s", node)
	}
	// Simulated stays before the node keys and alignment.
	r := scheduledComplete(SyncPPS)
	r.Simulated = true
	if sim := encodeScheduled(t, r, "rx-b"); !bytes.Contains(sim, []byte("\"rf_tx\": 0,\n  \"simulated\": true,\n  \"node\": \"rx-b\",")) {
		t.Errorf("simulated node result:\n%s", sim)
	}
}

func TestScheduledRoundTrip(t *testing.T) {
	for _, mode := range []SyncMode{SyncHostClock, SyncPPS} {
		for _, nodeName := range []string{"", "rx-b"} {
			want := scheduledComplete(mode)
			want.Alignment.Aligned = false
			want.Alignment.Reasons = []string{"edge 2026-07-01T09:00:01Z is not START_AT", "bound 0.5 s > policy's 0.010 <limit>"}
			want.Alignment.Bound = 999_999_999*time.Second + 999_999_999
			want.Alignment.FirstSampleAt = startAt.Add(-time.Nanosecond).In(time.FixedZone("", 3600))
			out := encodeScheduled(t, want, nodeName)
			if !bytes.Contains(out, []byte(`<limit>`)) || !bytes.Contains(out, []byte(`"bound_s": 999999999.999999999,`)) ||
				!bytes.Contains(out, []byte(`"first_sample_at": "2026-07-01T08:59:59.999999999Z",`)) {
				t.Errorf("%s %q: written as\n%s", mode, nodeName, out)
			}
			opts := Options{Node: nodeName, SyncMode: mode, StartAt: startAt.In(time.FixedZone("", -7200))}
			got, nf, err := DecodeNode(out, opts)
			if err != nil {
				t.Fatalf("%s %q: %v\n%s", mode, nodeName, err, out)
			}
			if got.SchemaVersion != ScheduledSchemaVersion || nf.Node != nodeName {
				t.Errorf("%s %q: version %d, node %q", mode, nodeName, got.SchemaVersion, nf.Node)
			}
			g, w := *got.Alignment, *want.Alignment
			if !g.FirstSampleAt.Equal(w.FirstSampleAt) || !g.StartAt.Equal(w.StartAt) ||
				(g.EdgeAt == nil) != (w.EdgeAt == nil) || g.EdgeAt != nil && !g.EdgeAt.Equal(*w.EdgeAt) {
				t.Errorf("%s: times differ: %+v vs %+v", mode, g, w)
			}
			g.FirstSampleAt, g.StartAt, g.EdgeAt = time.Time{}, time.Time{}, nil
			w.FirstSampleAt, w.StartAt, w.EdgeAt = time.Time{}, time.Time{}, nil
			if alignText(g) != alignText(w) {
				t.Errorf("%s: alignment differs:\n got %s\nwant %s", mode, alignText(g), alignText(w))
			}
			if want.SchemaVersion != 1 {
				t.Error("Encode modified its argument")
			}
			got.Alignment, want.Alignment = nil, nil
			want.SchemaVersion = ScheduledSchemaVersion
			sameResult(t, got, want)
		}
	}
}

// alignText is a's JSON, for messages and comparisons.
func alignText(a Alignment) string {
	b, err := a.MarshalJSON()
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func TestScheduledMarkdown(t *testing.T) {
	md := string(RenderMarkdown(scheduledComplete(SyncPPS)))
	if !strings.Contains(md, "| `alignment` | `{\"sync_mode\":\"PPS\",") || !strings.HasSuffix(strings.TrimSpace(strings.Split(md, "\n## ")[0]), "\"reasons\":[]}` |") {
		t.Errorf("alignment is not the table's last row:\n%s", md)
	}
	if strings.Contains(string(RenderMarkdown(sampleComplete())), "alignment") {
		t.Error("an unscheduled result's Markdown names alignment")
	}
}

func TestEncodeRefusesUnencodableAlignment(t *testing.T) {
	r := scheduledComplete(SyncPPS)
	r.Alignment.StartAt = startAt.Add(time.Millisecond)
	r.Alignment.EdgeAt = new(startAt.Add(time.Millisecond))
	r.Alignment.Bound = -1
	_, err := Encode(r)
	mustInvalid(t, err, problem{"alignment.start_at", ruleValue}, problem{"alignment.edge_at", ruleValue}, problem{"alignment.bound_s", ruleValue})

	r = scheduledComplete(SyncPPS)
	r.Alignment.SyncMode = "pps"
	r.Alignment.Bound = time.Duration(1e18) // 10^9 s
	r.Alignment.Reasons = []string{""}
	_, err = EncodeNode(r, NodeFields{Node: "rx-a"})
	mustInvalid(t, err, problem{"alignment.sync_mode", ruleValue}, problem{"alignment.bound_s", ruleValue},
		problem{"alignment.reasons", ruleValue})
}

// alignCase is one scheduled (or not) document and what Decode says of it
// under opts.
type alignCase struct {
	name string
	doc  []byte
	opts Options
	want []problem // nil: valid
}

func TestDecodeAlignmentRules(t *testing.T) {
	for _, tc := range alignCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decode(tc.doc, tc.opts)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("%v\n%s", err, tc.doc)
				}
				if (r.Alignment != nil) != (r.SchemaVersion == ScheduledSchemaVersion) {
					t.Errorf("schema_version %d with alignment %v", r.SchemaVersion, r.Alignment)
				}
				return
			}
			ie := mustInvalid(t, err, tc.want...)
			for _, p := range ie.Errs {
				if strings.HasPrefix(p.Key, "alignment.") && !strings.Contains(ie.Error(), `"`+p.Key+`": `) {
					t.Errorf("the message does not name %s:\n%v", p.Key, ie)
				}
			}
		})
	}
}

// What the JSON Schema cannot see of alignCases: it reads a result as
// Decode does with AnyNode and AnySync (no task), and these only Go refuses.
var alignSchemaCannotSee = map[string]string{
	"alignment twice":        "duplicate key",
	"duplicate inside":       "duplicate key",
	"bound with an exponent": "a number's spelling",
	"bound with 10 digits":   "a number's spelling",
	"overruns 0.0":           "integer written as 0.0",
	"PPS aligned, late edge": "edge_at equal to start_at",
}

// The JSON Schema says of scheduled results what Decode says with AnyNode
// and AnySync, but for alignSchemaCannotSee.
func TestSchemaAgreesOnScheduledResults(t *testing.T) {
	sch := compileSchema(t)
	for _, tc := range alignCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			_, goErr := Decode(tc.doc, Options{Node: AnyNode, SyncMode: AnySync})
			ok, schErr := schemaAccepts(sch, tc.doc)
			if why, goOnly := alignSchemaCannotSee[tc.name]; goOnly {
				if goErr == nil || !ok {
					t.Errorf("listed as Go-only (%s), but Go err=%v, schema err=%v", why, goErr, schErr)
				}
				return
			}
			if (goErr == nil) != ok {
				t.Errorf("disagree: Go err=%v\nschema err=%v", goErr, schErr)
			}
		})
	}
}

func alignCases(t *testing.T) []alignCase {
	host := encodeScheduled(t, scheduledComplete(SyncHostClock), "")
	pps := encodeScheduled(t, scheduledComplete(SyncPPS), "")
	ppsNode := encodeScheduled(t, scheduledComplete(SyncPPS), "rx-b")
	v1, err := Encode(sampleComplete())
	if err != nil {
		t.Fatal(err)
	}
	v2 := nodeComplete(t)
	hostOpts := Options{SyncMode: SyncHostClock, StartAt: startAt}
	ppsOpts := Options{SyncMode: SyncPPS, StartAt: startAt}
	anyOpts := Options{Node: AnyNode, SyncMode: AnySync}
	notAligned := func(doc []byte, reasons string) []byte {
		return withAlign(t, withAlign(t, doc, "aligned", "false"), "reasons", reasons)
	}
	lateEdge := withAlign(t, notAligned(pps, `["edge 2026-07-01T09:00:01Z is not START_AT"]`), "edge_at", `"2026-07-01T09:00:01Z"`)
	ignored := withAlign(t, withAlign(t, notAligned(pps, `["data began at arming: the firmware ignored -H"]`), "trigger", `"IGNORED"`), "edge_at", "null")
	x := func(key string, rule Rule) problem { return problem{key, rule} }
	return []alignCase{
		// Accepted.
		{"HOST_CLOCK", host, hostOpts, nil},
		{"PPS", pps, ppsOpts, nil},
		{"PPS node", ppsNode, Options{Node: "rx-b", SyncMode: SyncPPS, StartAt: startAt}, nil},
		{"PPS node, any", ppsNode, anyOpts, nil},
		{"single, any", host, anyOpts, nil},
		{"v1, any", v1, anyOpts, nil},
		{"v2, any", v2, anyOpts, nil},
		{"mode only", pps, Options{SyncMode: SyncPPS}, nil},
		{"start only", pps, Options{StartAt: startAt}, nil},
		{"PPS late edge, not aligned", lateEdge, ppsOpts, nil},
		{"PPS ignored, no edge", ignored, ppsOpts, nil},
		{"eight reasons", notAligned(host, `["a","b","c","d","e","f","g","h"]`), hostOpts, nil},
		{"bound zero", withAlign(t, host, "bound_s", "0"), hostOpts, nil},
		{"bound one digit", withAlign(t, host, "bound_s", "0.5"), hostOpts, nil},
		{"reason of 200 characters", notAligned(host, `["`+strings.Repeat("é", 200)+`"]`), hostOpts, nil},

		// Versions.
		{"v3 where the task has no START_AT", host, Options{}, []problem{x("schema_version", ruleValue)}},
		{"v3 node where the task has no START_AT", ppsNode, Options{Node: "rx-b"}, []problem{x("schema_version", ruleValue)}},
		{"v1 where the task has START_AT", v1, hostOpts, []problem{x("schema_version", ruleSync)}},
		{"v2 where the task has START_AT", v2, Options{Node: "rx-b", SyncMode: SyncPPS}, []problem{x("schema_version", ruleSync)}},
		{"v1 with alignment", bytes.Replace(host, []byte(`"schema_version": 3,`), []byte(`"schema_version": 1,`), 1), anyOpts,
			[]problem{x("alignment", ruleUnknownKey)}},
		{"v3 without alignment", withSimulated(t, bytes.Replace(v1, []byte(`"schema_version": 1,`), []byte(`"schema_version": 3,`), 1), "true"), hostOpts,
			[]problem{x("alignment", ruleMissing)}},
		{"v3 single where a node is required", host, Options{Node: "rx-b", SyncMode: SyncHostClock},
			[]problem{x("node", ruleMissing), x("sigmf_meta_sha512", ruleMissing)}},
		{"v3 node where single is expected", ppsNode, ppsOpts,
			[]problem{x("node", ruleUnknownKey), x("sigmf_meta_sha512", ruleUnknownKey)}},
		{"v3 from another node", ppsNode, Options{Node: "rx-a", SyncMode: SyncPPS}, []problem{x("node", ruleNode)}},
		{"alignment twice", bytes.Replace(host, []byte("\"rf_tx\": 0,\n"), []byte("\"rf_tx\": 0,\n  \"alignment\": {},\n"), 1), hostOpts,
			[]problem{x("alignment", ruleDuplicate)}},
		{"alignment not an object", bytes.Replace(v1, []byte("\"schema_version\": 1,"), []byte("\"schema_version\": 3,\n  \"alignment\": [],"), 1), hostOpts,
			[]problem{x("alignment", ruleValue)}},

		// The task's schedule.
		{"another START_AT", host, Options{SyncMode: SyncHostClock, StartAt: startAt.Add(time.Second)}, []problem{x("alignment.start_at", ruleSync)}},
		{"another SYNC_MODE", host, ppsOpts, []problem{x("alignment.sync_mode", ruleSync)}},

		// Keys inside.
		{"unknown key inside", withAlign(t, host, "aligned", `true, "note": {"a": [1]}`), hostOpts, []problem{x("alignment.note", ruleUnknownKey)}},
		{"case variant inside", bytes.Replace(host, []byte(`"aligned"`), []byte(`"Aligned"`), 1), hostOpts,
			[]problem{x("alignment.Aligned", ruleUnknownKey), x("alignment.aligned", ruleMissing)}},
		{"duplicate inside", withAlign(t, host, "reasons", `["x"], "reasons": []`), hostOpts, []problem{x("alignment.reasons", ruleDuplicate)}},
		{"missing inside", bytes.Replace(host, []byte("    \"bound_basis\""), []byte("    \"x_bound_basis\""), 1), hostOpts,
			[]problem{x("alignment.x_bound_basis", ruleUnknownKey), x("alignment.bound_basis", ruleMissing)}},

		// Values.
		{"sync_mode lowercase", withAlign(t, host, "sync_mode", `"host_clock"`), Options{StartAt: startAt}, []problem{x("alignment.sync_mode", ruleValue)}},
		{"start_at with a fraction", withAlign(t, host, "start_at", `"2026-07-01T09:00:00.000Z"`), hostOpts, []problem{x("alignment.start_at", ruleValue)}},
		{"start_at with an offset", withAlign(t, host, "start_at", `"2026-07-01T11:00:00+02:00"`), hostOpts, []problem{x("alignment.start_at", ruleValue)}},
		{"start_at hour 24", withAlign(t, host, "start_at", `"2026-07-01T24:00:00Z"`), hostOpts, []problem{x("alignment.start_at", ruleValue)}},
		{"first_sample_at with 6 digits", withAlign(t, host, "first_sample_at", `"2026-07-01T09:00:00.000001Z"`), hostOpts, []problem{x("alignment.first_sample_at", ruleValue)}},
		{"first_sample_at whole second", withAlign(t, host, "first_sample_at", `"2026-07-01T09:00:00Z"`), hostOpts, []problem{x("alignment.first_sample_at", ruleValue)}},
		{"edge_at with a fraction", withAlign(t, pps, "edge_at", `"2026-07-01T09:00:00.5Z"`), ppsOpts, []problem{x("alignment.edge_at", ruleValue)}},
		{"trigger unknown", withAlign(t, pps, "trigger", `"FIRED"`), ppsOpts, []problem{x("alignment.trigger", ruleValue)}},
		{"bound negative", withAlign(t, host, "bound_s", "-0.1"), hostOpts, []problem{x("alignment.bound_s", ruleValue)}},
		{"bound with an exponent", withAlign(t, host, "bound_s", "1.302e-3"), hostOpts, []problem{x("alignment.bound_s", ruleValue)}},
		{"bound with 10 digits", withAlign(t, host, "bound_s", "0.0013020001"), hostOpts, []problem{x("alignment.bound_s", ruleValue)}},
		{"bound 10^9 s", withAlign(t, host, "bound_s", "1000000000"), hostOpts, []problem{x("alignment.bound_s", ruleValue)}},
		{"bound as a string", withAlign(t, host, "bound_s", `"0.1"`), hostOpts, []problem{x("alignment.bound_s", ruleValue)}},
		{"basis empty", withAlign(t, host, "bound_basis", `""`), hostOpts, []problem{x("alignment.bound_basis", ruleValue)}},
		{"basis hidden", withAlign(t, host, "bound_basis", `"chrony\u200b"`), hostOpts, []problem{x("alignment.bound_basis", ruleValue)}},
		{"basis 201", withAlign(t, host, "bound_basis", `"`+strings.Repeat("a", 201)+`"`), hostOpts, []problem{x("alignment.bound_basis", ruleValue)}},
		{"overruns negative", withAlign(t, host, "overruns", "-1"), hostOpts, []problem{x("alignment.overruns", ruleValue)}},
		{"overruns 0.0", withAlign(t, host, "overruns", "0.0"), hostOpts, []problem{x("alignment.overruns", ruleValue)}},
		{"aligned as a string", withAlign(t, host, "aligned", `"true"`), hostOpts, []problem{x("alignment.aligned", ruleValue)}},
		{"reasons null", withAlign(t, host, "reasons", "null"), hostOpts, []problem{x("alignment.reasons", ruleValue)}},
		{"nine reasons", notAligned(host, `["a","b","c","d","e","f","g","h","i"]`), hostOpts, []problem{x("alignment.reasons", ruleValue)}},
		{"reason a number", notAligned(host, `["a", 1]`), hostOpts, []problem{x("alignment.reasons", ruleValue)}},
		{"reason with a newline", notAligned(host, `["a\nb"]`), hostOpts, []problem{x("alignment.reasons", ruleValue)}},
		{"reason empty", notAligned(host, `[""]`), hostOpts, []problem{x("alignment.reasons", ruleValue)}},

		// Across keys.
		{"aligned with a reason", withAlign(t, host, "reasons", `["x"]`), hostOpts, []problem{x("alignment.reasons", ruleAlign)}},
		{"aligned with overruns", withAlign(t, host, "overruns", "2"), hostOpts, []problem{x("alignment.overruns", ruleAlign)}},
		{"not aligned without a reason", withAlign(t, host, "aligned", "false"), hostOpts, []problem{x("alignment.reasons", ruleAlign)}},
		{"HOST_CLOCK with an edge", withAlign(t, host, "edge_at", `"2026-07-01T09:00:00Z"`), hostOpts, []problem{x("alignment.edge_at", ruleAlign)}},
		{"HOST_CLOCK honoured", withAlign(t, host, "trigger", `"HONOURED"`), hostOpts, []problem{x("alignment.trigger", ruleAlign)}},
		{"PPS not used", withAlign(t, lateEdge, "trigger", `"NOT_USED"`), ppsOpts, []problem{x("alignment.trigger", ruleAlign)}},
		{"PPS aligned, ignored", withAlign(t, pps, "trigger", `"IGNORED"`), ppsOpts, []problem{x("alignment.trigger", ruleAlign)}},
		{"PPS aligned, late edge", withAlign(t, pps, "edge_at", `"2026-07-01T09:00:01Z"`), ppsOpts, []problem{x("alignment.edge_at", ruleAlign)}},
		{"PPS aligned, no edge", withAlign(t, pps, "edge_at", "null"), ppsOpts, []problem{x("alignment.edge_at", ruleAlign)}},

		// Every reason at once, the other keys' too.
		{"every reason at once", withValue(t, withAlign(t, withAlign(t, withAlign(t, withAlign(t, pps,
			"trigger", `"IGNORED"`), "overruns", "3"), "bound_s", "1e-3"), "aligned", `true, "note": 1, "note": 2`), "rf_tx", "1"),
			Options{SyncMode: SyncPPS, StartAt: startAt.Add(-time.Second)},
			[]problem{x("rf_tx", ruleValue), x("alignment.note", ruleUnknownKey), x("alignment.bound_s", ruleValue),
				x("alignment.overruns", ruleAlign), x("alignment.trigger", ruleAlign), x("alignment.start_at", ruleSync)}},
	}
}

// FuzzDecodeScheduled is FuzzDecode for readers that accept every version
// (AnyNode, AnySync): what Decode accepts re-encodes to a fixed point and
// the JSON Schema accepts too. Seeds: the scheduled examples.
func FuzzDecodeScheduled(f *testing.F) {
	for _, mode := range []SyncMode{SyncHostClock, SyncPPS} {
		for _, node := range []string{"", "rx-b"} {
			f.Add(encodeScheduled(f, scheduledComplete(mode), node))
		}
	}
	f.Add([]byte(`{"alignment":{"reasons":["a","a"],"reasons":[]}}`))
	sch := compileSchema(f)
	opts := Options{Node: AnyNode, SyncMode: AnySync}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, nf, err := DecodeNode(data, opts)
		if err != nil {
			var ie *invalidError
			if !errors.As(err, &ie) || len(ie.Errs) == 0 {
				t.Fatalf("rejection is not an *invalidError with problems: %T %v", err, err)
			}
			return
		}
		encode := func(r *Result) ([]byte, error) {
			if nf.Node != "" {
				return EncodeNode(r, nf)
			}
			return Encode(r)
		}
		out, err := encode(r)
		if err != nil {
			t.Fatalf("accepted result does not encode: %v", err)
		}
		back, _, err := DecodeNode(out, opts)
		if err != nil {
			t.Fatalf("Encode output rejected: %v\n%s", err, out)
		}
		if out2, err := encode(back); err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("Encode is not a fixed point: %v\n%s\n%s", err, out, out2)
		}
		if ok, err := schemaAccepts(sch, data); !ok {
			t.Fatalf("Go accepted what the schema rejects: %v\n%s", err, data)
		}
	})
}
