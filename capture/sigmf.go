package capture

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/localfile"
	"rfhandoff/quicklook"
	"rfhandoff/result"
	"rfhandoff/sigmf"
)

// The files beside a capture.
const (
	DataSuffix = ".sigmf-data"
	MetaSuffix = ".sigmf-meta"
	PNGSuffix  = ".quicklook.png"
	ResultName = "RX_RESULT.json" // the last result written
)

type sigmfMeta struct {
	Global      sigmfGlobal       `json:"global"`
	Captures    []sigmfCapture    `json:"captures"`
	Annotations []sigmfAnnotation `json:"annotations"`
}

type sigmfGlobal struct {
	Datatype    string `json:"core:datatype"`
	Version     string `json:"core:version"`
	SampleRate  int64  `json:"core:sample_rate"`
	NumChannels int    `json:"core:num_channels"`
	SHA512      string `json:"core:sha512,omitempty"` // omitted only if the file could not be hashed
	HW          string `json:"core:hw,omitempty"`
	Recorder    string `json:"core:recorder"`
	Author      string `json:"core:author,omitempty"`
	Description string `json:"core:description"`
	// Collection is <TASK_ID> for a node's recording (PROTOCOL#several-nodes).
	Collection string                `json:"core:collection,omitempty"`
	Extensions []sigmf.ExtensionDecl `json:"core:extensions"`
	// What ran (PROTOCOL#capture); a value not known is left out.
	LNAGainDB    *int   `json:"rfhandoff:lna_gain_db,omitempty"`
	VGAGainDB    *int   `json:"rfhandoff:vga_gain_db,omitempty"`
	Amp          *bool  `json:"rfhandoff:amp,omitempty"`
	AntennaPower *bool  `json:"rfhandoff:antenna_power,omitempty"`
	Serial       string `json:"rfhandoff:serial,omitempty"`
	Firmware     string `json:"rfhandoff:firmware,omitempty"`
	Simulated    bool   `json:"rfhandoff:simulated,omitempty"` // PROTOCOL#simulator
	// A scheduled capture's timing (PROTOCOL#capture): all five present,
	// edge_at null for HOST_CLOCK; all absent otherwise.
	SyncMode   result.SyncMode `json:"rfhandoff:sync_mode,omitempty"`
	TimeSource string          `json:"rfhandoff:time_source,omitempty"`
	BoundS     json.Number     `json:"rfhandoff:bound_s,omitempty"`
	EdgeAt     json.RawMessage `json:"rfhandoff:edge_at,omitempty"` // a JSON string, or null
	Aligned    *bool           `json:"rfhandoff:aligned,omitempty"`
}

// metaTiming is a scheduled capture's timing for its metadata.
type metaTiming struct {
	alignment  result.Alignment
	timeSource string // rfhandoff:time_source
}

type sigmfCapture struct {
	SampleStart int64  `json:"core:sample_start"`
	Frequency   int64  `json:"core:frequency"`
	Datetime    string `json:"core:datetime"`
}

type sigmfAnnotation struct {
	SampleStart   int64   `json:"core:sample_start"`
	SampleCount   int64   `json:"core:sample_count"`
	FreqLowerEdge float64 `json:"core:freq_lower_edge"`
	FreqUpperEdge float64 `json:"core:freq_upper_edge"`
	Label         string  `json:"core:label"`
	Comment       string  `json:"core:comment"`
}

type metaInput struct {
	taskID, title    string
	sampleRate       int64
	frequency        int64
	firstSample      time.Time // core:datetime: when the first sample was taken
	sha512           string
	hw               string
	toolVersion      string
	author           string
	outcome          string // one line: how the capture ended
	detection        *quicklook.Detection
	collection       string            // core:collection, "" for none
	plan             *captureplan.Plan // the capture that ran; nil when not known
	serial, firmware string            // the board's, "" when not known
	simulated        bool
	timing           *metaTiming // a scheduled capture's (core:datetime is then first_sample_at); nil otherwise
}

// buildMeta assembles the SigMF metadata; a detected burst becomes an
// annotation so SigMF viewers mark it.
func buildMeta(in metaInput) sigmfMeta {
	rec := "hackrf_transfer"
	if in.toolVersion != "" {
		rec += " " + in.toolVersion
	}
	if in.simulated {
		rec = "rfhandoff's HackRF simulator as " + rec
		in.hw = simulatedHWDescription(in.hw)
	}
	m := sigmfMeta{
		Global: sigmfGlobal{
			Datatype: "ci8", Version: sigmf.CollectionVersion, SampleRate: in.sampleRate, NumChannels: 1,
			SHA512: in.sha512, HW: in.hw, Recorder: rec + " (rfhandoff rx capture)", Author: in.author,
			Description: description(in),
			Collection:  in.collection,
			// Optional: a reader that does not know it loses no samples.
			Extensions: []sigmf.ExtensionDecl{{Name: sigmf.Extension, Version: sigmf.ExtensionVersion, Optional: true}},
			Serial:     in.serial, Firmware: in.firmware, Simulated: in.simulated,
		},
		Captures: []sigmfCapture{{
			SampleStart: 0, Frequency: in.frequency,
			Datetime: in.firstSample.UTC().Format("2006-01-02T15:04:05.000Z"),
		}},
		Annotations: []sigmfAnnotation{},
	}
	if tm := in.timing; tm != nil {
		a, g := tm.alignment, &m.Global
		g.EdgeAt = json.RawMessage("null")
		if a.EdgeAt != nil {
			g.EdgeAt = strconv.AppendQuote(nil, a.EdgeAt.UTC().Format(time.RFC3339))
		}
		g.Extensions = []sigmf.ExtensionDecl{sigmf.TimingExtension}
		g.SyncMode, g.TimeSource, g.BoundS, g.Aligned = a.SyncMode, tm.timeSource, json.Number(result.FormatSeconds(a.Bound)), &a.Aligned
		m.Captures[0].Datetime = result.FormatNano(a.FirstSampleAt)
	}
	if pl := in.plan; pl != nil {
		g := &m.Global
		g.LNAGainDB, g.VGAGainDB, g.Amp, g.AntennaPower = &pl.LNAGainDB, &pl.VGAGainDB, &pl.Amp, &pl.AntennaPower
	}
	if d := in.detection; d != nil && d.Burst {
		centre := float64(in.frequency)
		m.Annotations = append(m.Annotations, sigmfAnnotation{
			SampleStart: d.StartSample, SampleCount: max(d.EndSample-d.StartSample, 1),
			FreqLowerEdge: centre + d.LowOffsetHz, FreqUpperEdge: centre + d.HighOffsetHz,
			Label: "burst",
			Comment: fmt.Sprintf("energy detector: %.1f dB over the noise floor, peak %.1f dBFS at %.6f MHz",
				d.PeakExcessDB, d.PeakDBFS, (centre+d.PeakOffsetHz)/1e6),
		})
	}
	return m
}

// description is core:description; a recovery has no title.
func description(in metaInput) string {
	d := fmt.Sprintf("%s: %s. %s", in.taskID, in.title, in.outcome)
	if in.title == "" {
		d = fmt.Sprintf("%s. %s", in.taskID, in.outcome)
	}
	if in.simulated {
		d = "SIMULATED capture (rfhandoff's HackRF simulator, no radio). " + d
	}
	return d
}

// saveMeta writes in's metadata to path: path and its SHA-512, or "", "" (logged).
func saveMeta(path string, in metaInput, log *slog.Logger) (string, string) {
	data, err := json.MarshalIndent(buildMeta(in), "", "  ")
	data = append(data, '\n')
	if err == nil {
		err = localfile.WriteFileAtomic(path, data, 0o644)
	}
	if err != nil {
		log.Warn("could not write the SigMF metadata", "err", err)
		return "", ""
	}
	sum := sha512.Sum512(data)
	return path, hex.EncodeToString(sum[:])
}

// collection is core:collection: the task's for a node's recording.
func collection(id, node string) string {
	if node == "" {
		return ""
	}
	return id
}
