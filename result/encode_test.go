package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
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
	if !errors.As(err, &ie) || len(ie.Problems()) < 5 {
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
		tags = append(tags, rt.Field(i).Tag.Get("json"))
	}
	if !slices.Equal(tags, keys()) {
		t.Errorf("struct tags %v\n!= table %v", tags, keys())
	}
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(SchemaJSON(), &schema); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(schema.Required, keys()) {
		t.Errorf("schema required %v\n!= table %v", schema.Required, keys())
	}
	if len(keys()) != 24 {
		t.Errorf("%d keys, PROTOCOL §5 has 24", len(keys()))
	}
}
