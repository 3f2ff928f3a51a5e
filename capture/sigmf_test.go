package capture

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/quicklook"
	"rfhandoff/result"
)

// unscheduledMeta is the metadata of a simulated node's recording with a
// burst, as rfhandoff wrote it before scheduled captures existed.
const unscheduledMeta = `{
  "global": {
    "core:datatype": "ci8",
    "core:version": "1.2.0",
    "core:sample_rate": 2000000,
    "core:num_channels": 1,
    "core:sha512": "abababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababab",
    "core:hw": "SIMULATED: rfhandoff's HackRF simulator, no radio (it emulates HackRF One r8)",
    "core:recorder": "rfhandoff's HackRF simulator as hackrf_transfer 2022.09.1 (rfhandoff rx capture)",
    "core:description": "SIMULATED capture (rfhandoff's HackRF simulator, no radio). DF_T1: Bench. Capture ended normally.",
    "core:collection": "DF_T1",
    "core:extensions": [
      {
        "name": "rfhandoff",
        "version": "1.0.0",
        "optional": true
      }
    ],
    "rfhandoff:lna_gain_db": 24,
    "rfhandoff:vga_gain_db": 30,
    "rfhandoff:amp": true,
    "rfhandoff:antenna_power": false,
    "rfhandoff:serial": "a06063c8233e1a5f",
    "rfhandoff:firmware": "2022.09.1",
    "rfhandoff:simulated": true
  },
  "captures": [
    {
      "core:sample_start": 0,
      "core:frequency": 433920000,
      "core:datetime": "2026-11-29T12:36:09.123Z"
    }
  ],
  "annotations": [
    {
      "core:sample_start": 10000000,
      "core:sample_count": 10000000,
      "core:freq_lower_edge": 434117000,
      "core:freq_upper_edge": 434123000,
      "core:label": "burst",
      "core:comment": "energy detector: 24.8 dB over the noise floor, peak -12.5 dBFS at 434.120000 MHz"
    }
  ]
}
`

func sampleMetaInput() metaInput {
	first := time.Date(2026, 11, 29, 13, 36, 9, 123456789, time.FixedZone("CET", 3600))
	det := &quicklook.Detection{Burst: true, Start: 5 * time.Second, End: 10 * time.Second, StartSample: 10_000_000, EndSample: 20_000_000,
		LowOffsetHz: 197e3, HighOffsetHz: 203e3, PeakDBFS: -12.5, PeakOffsetHz: 200e3, PeakExcessDB: 24.8}
	return metaInput{
		taskID: "DF_T1", title: "Bench", sampleRate: 2e6, frequency: 433920000, firstSample: first,
		sha512: strings.Repeat("ab", 64), hw: "HackRF One r8", toolVersion: "2022.09.1",
		outcome: "Capture ended normally.", detection: det, collection: "DF_T1",
		plan: &captureplan.Plan{LNAGainDB: 24, VGAGainDB: 30, Amp: true}, serial: "a06063c8233e1a5f", firmware: "2022.09.1", simulated: true,
	}
}

// writeMetaFile is saveMeta into a temporary directory: the bytes and
// their digest as written.
func writeMetaFile(t *testing.T, in metaInput) ([]byte, string) {
	t.Helper()
	path, sum := saveMeta(filepath.Join(t.TempDir(), "r"+MetaSuffix), in, slog.New(slog.DiscardHandler))
	if path == "" {
		t.Fatal("not written")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := sha512.Sum512(data); hex.EncodeToString(d[:]) != sum {
		t.Errorf("digest %s is not the file's", sum)
	}
	if err := sigmftest.ValidateMeta(data); err != nil {
		t.Errorf("metadata does not validate: %v\n%s", err, data)
	}
	return data, sum
}

// An unscheduled capture's metadata is byte for byte what it was.
func TestMetaUnscheduledUnchanged(t *testing.T) {
	if data, _ := writeMetaFile(t, sampleMetaInput()); string(data) != unscheduledMeta {
		t.Errorf("got\n%s\nwant\n%s", data, unscheduledMeta)
	}
}

// A scheduled capture's metadata: core:datetime is first_sample_at to the
// nanosecond, and the timing keys are in the rfhandoff extension, declared
// not optional; nothing else changes.
func TestMetaScheduled(t *testing.T) {
	start := time.Date(2026, 11, 29, 12, 37, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		align    result.Alignment
		source   string
		datetime string
		keys     string
	}{
		{"PPS", result.Alignment{SyncMode: result.SyncPPS, StartAt: start, FirstSampleAt: start.Add(-7), EdgeAt: &start,
			Trigger: result.TriggerHonoured, Bound: 50, Aligned: true}, "PPS",
			"2026-11-29T12:36:59.999999993Z", `    "rfhandoff:sync_mode": "PPS",
    "rfhandoff:time_source": "PPS",
    "rfhandoff:bound_s": 0.000000050,
    "rfhandoff:edge_at": "2026-11-29T12:37:00Z",
    "rfhandoff:aligned": true
`},
		{"HOST_CLOCK", result.Alignment{SyncMode: result.SyncHostClock, StartAt: start, FirstSampleAt: start.Add(1_302_000),
			Trigger: result.TriggerNotUsed, Bound: 1_302_000, Overruns: 1, Reasons: []string{"1 overrun"}}, "chrony",
			"2026-11-29T12:37:00.001302000Z", `    "rfhandoff:sync_mode": "HOST_CLOCK",
    "rfhandoff:time_source": "chrony",
    "rfhandoff:bound_s": 0.001302000,
    "rfhandoff:edge_at": null,
    "rfhandoff:aligned": false
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := sampleMetaInput()
			in.timing = &metaTiming{alignment: tc.align, timeSource: tc.source}
			data, _ := writeMetaFile(t, in)
			want := strings.Replace(unscheduledMeta, `"version": "1.0.0",
        "optional": true`, `"version": "1.1.0",
        "optional": false`, 1)
			want = strings.Replace(want, "    \"rfhandoff:simulated\": true\n", "    \"rfhandoff:simulated\": true,\n"+tc.keys, 1)
			want = strings.Replace(want, `"2026-11-29T12:36:09.123Z"`, `"`+tc.datetime+`"`, 1)
			if string(data) != want {
				t.Errorf("got\n%s\nwant\n%s", data, want)
			}
			// The keys read back as SigMF readers see them.
			var m struct {
				Global map[string]any `json:"global"`
			}
			if err := json.Unmarshal(data, &m); err != nil || m.Global["rfhandoff:sync_mode"] != string(tc.align.SyncMode) {
				t.Errorf("read back: %v %v", m.Global, err)
			}
		})
	}
}
