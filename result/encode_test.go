package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestEncodeExamplesAreCanonical(t *testing.T) {
	for _, name := range []string{"ready.json", "complete.json"} {
		doc := readExample(t, name)
		r, err := Decode(doc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, doc) {
			t.Errorf("%s: Encode(Decode(file)) differs:\n%s", name, out)
		}
	}
}

func sampleComplete() *Result {
	berlin := time.FixedZone("", 2*3600)
	started := time.Date(2026, 7, 1, 9, 0, 0, 123456789, berlin)
	return &Result{
		SchemaVersion:       1,
		TaskID:              "RX_2026_07_01_A",
		State:               StateComplete,
		SourceHead:          "0123456789abcdef0123456789abcdef01234567",
		PublishedAt:         started.Add(125 * time.Second),
		CaptureStartedAt:    started,
		PlannedDurationS:    120,
		FrequencyHz:         915_000_000,
		SampleRateHz:        10_000_000,
		CommonClockVerified: false,
		CapturePID:          1 << 22,
		CaptureEndedAt:      new(started.Add(120*time.Second + 5*time.Millisecond).UTC()),
		CaptureExitCode:     new(int64(-1)),
		CaptureSizeBytes:    new(int64(0)),
		CaptureDurationS:    new(0.000001),
		CaptureSHA256:       new(SHA256(nil)),
		Overruns:            nil,
		DroppedFrames:       new(int64(12)),
		ClkinAfter:          new(ClkinNotDetected),
		RFTXObserved:        new(RFTXUnknown),
	}
}

func sameResult(t *testing.T, got, want *Result) {
	t.Helper()
	// time.Time compares by instant; everything else by value.
	if !got.PublishedAt.Equal(want.PublishedAt) || !got.CaptureStartedAt.Equal(want.CaptureStartedAt) {
		t.Errorf("times differ: %v %v vs %v %v", got.PublishedAt, got.CaptureStartedAt, want.PublishedAt, want.CaptureStartedAt)
	}
	if (got.CaptureEndedAt == nil) != (want.CaptureEndedAt == nil) ||
		got.CaptureEndedAt != nil && !got.CaptureEndedAt.Equal(*want.CaptureEndedAt) {
		t.Errorf("capture_ended_at differs: %v vs %v", got.CaptureEndedAt, want.CaptureEndedAt)
	}
	g, w := *got, *want
	g.PublishedAt, g.CaptureStartedAt, g.CaptureEndedAt = time.Time{}, time.Time{}, nil
	w.PublishedAt, w.CaptureStartedAt, w.CaptureEndedAt = time.Time{}, time.Time{}, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("results differ:\n got %+v\nwant %+v", g, w)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	want := sampleComplete()
	out, err := Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(out, []byte("}\n")) || !bytes.HasPrefix(out, []byte("{\n  \"schema_version\": 1,\n  \"task_id\"")) {
		t.Errorf("not canonical layout:\n%s", out)
	}
	got, err := Decode(out, Options{TaskID: want.TaskID})
	if err != nil {
		t.Fatalf("Decode rejects Encode's output: %v\n%s", err, out)
	}
	sameResult(t, got, want)
	again, err := Encode(got)
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("second Encode differs (%v):\n%s", err, again)
	}

	ready := &Result{
		SchemaVersion: 1, TaskID: "ABC", State: StateReady,
		SourceHead:  "ffffffffffffffffffffffffffffffffffffffff",
		PublishedAt: time.Unix(1_800_000_000, 0).UTC(), CaptureStartedAt: time.Unix(1_799_999_990, 0).UTC(),
		PlannedDurationS: 15, FrequencyHz: 1, SampleRateHz: 1, CapturePID: 1,
		RXReadyForTX: true, ProcessAlive: true, FileGrowing: true, CommonClockVerified: true,
	}
	out, err = Encode(ready)
	if err != nil {
		t.Fatal(err)
	}
	got, err = Decode(out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameResult(t, got, ready)
}

// An offset with seconds can't be written in RFC 3339; the instant is kept.
func TestEncodeOffsetWithSeconds(t *testing.T) {
	want := sampleComplete()
	lmt := time.FixedZone("LMT", 3600+30)
	want.PublishedAt = want.PublishedAt.In(lmt)
	want.CaptureEndedAt = new(want.CaptureEndedAt.In(lmt))
	out, err := Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameResult(t, got, want)
	if want.PublishedAt.Location() != lmt {
		t.Error("Encode modified its argument")
	}
}

func TestEncodeRefusesInvalid(t *testing.T) {
	r := sampleComplete()
	r.RFTX = 1
	r.ProcessAlive = true
	r.CaptureSHA256 = new("ABC")
	_, err := Encode(r)
	mustInvalid(t, err,
		problem{"capture_sha256", ruleValue},
		problem{"rf_tx", ruleValue},
		problem{"process_alive", ruleState},
	)

	_, err = Encode(&Result{})
	var ie *invalidError
	if !errors.As(err, &ie) || len(ie.Errs) < 5 {
		t.Errorf("zero Result: %v", err)
	}
	if _, err := Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
	r = sampleComplete()
	r.PublishedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Encode(r); err == nil {
		t.Error("year 10000 encoded")
	}
}

// The struct, the decoder's table and the schema must list the same keys in
// the same order.
func TestKeysAgree(t *testing.T) {
	var tags []string
	rt := reflect.TypeFor[Result]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name != "-" { // Alignment: written last, after a node result's keys
			tags = append(tags, name)
		}
	}
	if !slices.Equal(tags, keys()) {
		t.Errorf("struct tags %v\n!= table %v", tags, keys())
	}
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(schema.Required, requiredKeys()) {
		t.Errorf("schema required %v\n!= table %v", schema.Required, requiredKeys())
	}
	if len(requiredKeys()) != 24 || len(keys()) != 25 {
		t.Errorf("%d required keys of %d, PROTOCOL#result has 24 and one optional (simulated)", len(requiredKeys()), len(keys()))
	}
}

// "simulated" is written only for a simulated capture, last of the
// single-node keys; a result without it is byte for byte what Encode wrote
// before the key existed (the examples predate it).
func TestEncodeSimulated(t *testing.T) {
	for _, name := range []string{"ready.json", "complete.json"} {
		want := readExample(t, name)
		r, err := Decode(want, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: a result without simulated changed:\n%s\nwant\n%s", name, got, want)
		}
		r.Simulated = true
		got, err = Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, withSimulated(t, want, "true")) {
			t.Errorf("%s simulated:\n%s", name, got)
		}
		back, err := Decode(got, Options{})
		if err != nil || !back.Simulated {
			t.Errorf("%s: decoding the simulated result: %v, %v", name, back, err)
		}
		// A node result carries it too, before its node keys.
		nodeDoc, err := EncodeNode(r, NodeFields{Node: "rx-a"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(nodeDoc), "\"rf_tx\": 0,\n  \"simulated\": true,\n  \"node\": \"rx-a\"") {
			t.Errorf("%s node result:\n%s", name, nodeDoc)
		}
		if back, nf, err := DecodeNode(nodeDoc, Options{Node: "rx-a"}); err != nil || !back.Simulated || nf.Node != "rx-a" {
			t.Errorf("%s node result decodes to %v %v %v", name, back, nf, err)
		}
	}
}
