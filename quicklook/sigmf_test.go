package quicklook

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-multierror"
)

const goodMeta = `{
  "global": {"core:datatype": "ci8", "core:sample_rate": 2000000, "core:version": "1.0.0",
             "core:hw": "HackRF One"},
  "captures": [{"core:sample_start": 0, "core:frequency": 433920000.0,
                "core:datetime": "2025-03-14T09:26:53.250Z"}],
  "annotations": []
}`

func TestParseSigMFMeta(t *testing.T) {
	m, err := ParseSigMFMeta([]byte(goodMeta))
	if err != nil {
		t.Fatal(err)
	}
	want := SigMFMeta{Datatype: "ci8", SampleRateHz: 2_000_000, FrequencyHz: 433_920_000,
		Start: time.Date(2025, 3, 14, 9, 26, 53, 250_000_000, time.UTC)}
	if !m.Start.Equal(want.Start) || m.Datatype != want.Datatype || m.SampleRateHz != want.SampleRateHz || m.FrequencyHz != want.FrequencyHz {
		t.Fatalf("got %+v, want %+v", m, want)
	}

	partial, err := ParseSigMFMeta([]byte(`{"global": {"core:sample_rate": 1e7}}`))
	if err != nil || partial.SampleRateHz != 10_000_000 || partial.FrequencyHz != 0 || !partial.Start.IsZero() || partial.Simulated {
		t.Fatalf("partial metadata: %+v, %v", partial, err)
	}
	if m.Simulated {
		t.Error("a HackRF's metadata reads as simulated")
	}
	sim, err := ParseSigMFMeta([]byte(`{"global": {"core:sample_rate": 2e6, "rfhandoff:simulated": true}}`))
	if err != nil || !sim.Simulated {
		t.Fatalf("rfhandoff:simulated: %+v, %v", sim, err)
	}
}

func TestParseSigMFMetaErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		fields []string // every field named, all at once
	}{
		{"not json", `{"global":`, []string{"(file)"}},
		{"array", `[]`, []string{"(file)"}},
		{"null", `null`, []string{"(file)"}},
		{"global not object", `{"global": 3}`, []string{"global"}},
		{"everything wrong", `{"global": {"core:datatype": "cf32_le", "core:sample_rate": -5},
			"captures": [{"core:frequency": "433.92 MHz", "core:datetime": "yesterday"}]}`,
			[]string{"global.core:datatype", "global.core:sample_rate", "captures[0].core:frequency", "captures[0].core:datetime"}},
		{"zero rate", `{"global": {"core:sample_rate": 0}}`, []string{"global.core:sample_rate"}},
		{"tiny rate", `{"global": {"core:sample_rate": 0.2}}`, []string{"global.core:sample_rate"}},
		{"huge frequency", `{"captures": [{"core:frequency": 1e300}]}`, []string{"captures[0].core:frequency"}},
		{"captures not array", `{"captures": {}}`, []string{"captures"}},
		{"capture not object", `{"captures": [7]}`, []string{"captures[0]"}},
		{"datatype not string", `{"global": {"core:datatype": 8}}`, []string{"global.core:datatype"}},
		{"simulated not a boolean", `{"global": {"rfhandoff:simulated": "yes"}}`, []string{"global.rfhandoff:simulated"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSigMFMeta([]byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			var got []string
			for _, e := range problemsOf(err) {
				got = append(got, sigmfField(e))
			}
			if strings.Join(got, ",") != strings.Join(tc.fields, ",") {
				t.Errorf("fields %v, want %v (%v)", got, tc.fields, err)
			}
		})
	}
}

func TestSigMFMetaPaths(t *testing.T) {
	tests := map[string][]string{
		"/c/x.sigmf-data": {"/c/x.sigmf-meta", "/c/x.sigmf-data.sigmf-meta"},
		"/c/x.ci8":        {"/c/x.sigmf-meta", "/c/x.ci8.sigmf-meta"},
		"/c/capture":      {"/c/capture.sigmf-meta"},
	}
	for in, want := range tests {
		if got := SigMFMetaPaths(in); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("SigMFMetaPaths(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseSigMFMeta(f *testing.F) {
	f.Add([]byte(goodMeta))
	f.Add([]byte(`{"global": {"core:sample_rate": 2e6}, "captures": []}`))
	f.Add([]byte(`{"captures": [{"core:frequency": -1, "core:datetime": "2025-01-01T00:00:00+02:00"}]}`))
	f.Add([]byte(`{"global": null, "captures": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseSigMFMeta(data)
		if err != nil {
			if m != (SigMFMeta{}) {
				t.Fatalf("error %v with a non-zero result %+v", err, m)
			}
			return
		}
		if m.SampleRateHz < 0 || m.FrequencyHz < 0 || m.SampleRateHz > maxSigMFHz || m.FrequencyHz > maxSigMFHz {
			t.Fatalf("out of range: %+v", m)
		}
		if m.Datatype != "" && m.Datatype != sigMFDatatype {
			t.Fatalf("datatype %q accepted", m.Datatype)
		}
	})
}

// problemsOf is the problems in err, one per field.
func problemsOf(err error) []error {
	var me *multierror.Error
	if errors.As(err, &me) {
		return me.Errors
	}
	return []error{err}
}

// sigmfField is the field a problem names: "<field> = <value>: ..." or
// "<field>: ..." (fields hold ':' but never ": ").
func sigmfField(e error) string {
	msg := e.Error()
	end := strings.Index(msg, ": ")
	if i := strings.Index(msg, " = "); i >= 0 && (end < 0 || i < end) {
		end = i
	}
	if end < 0 {
		return msg
	}
	return msg[:end]
}
