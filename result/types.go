package result

import "time"

type State string

const (
	StateReady    State = "RX_READY_FOR_TX"
	StateComplete State = "CAPTURE_COMPLETE"
)

// Clkin is what `hackrf_clock -i` reported after the capture.
type Clkin string

const (
	ClkinDetected    Clkin = "DETECTED"
	ClkinNotDetected Clkin = "NOT_DETECTED"
)

// RFTXObserved is the energy detector's verdict; the receiver never claims
// that nothing was sent.
type RFTXObserved string

const (
	RFTXExpectedExternal RFTXObserved = "EXPECTED_EXTERNAL_TX"
	RFTXUnknown          RFTXObserved = "UNKNOWN"
)

const SchemaVersion = 1 // a single-node result

// NodeSchemaVersion is the schema_version of a node result, for a task with
// RX_NODES (PROTOCOL#several-nodes).
const NodeSchemaVersion = 2

// MaxBytes is the protocol's size limit for RX_RESULT.json and RX_RESULT.md.
const MaxBytes = 64 << 10

// Result is one RX_RESULT.json, fields in the order of the PROTOCOL#result
// table. Read results with Decode only: json.Unmarshal would fold key case
// and keep the last of duplicate keys.
type Result struct {
	SchemaVersion       int           `json:"schema_version"`
	TaskID              string        `json:"task_id"`
	State               State         `json:"state"`
	SourceHead          string        `json:"source_head"`
	PublishedAt         time.Time     `json:"published_at"`
	CaptureStartedAt    time.Time     `json:"capture_started_at"`
	PlannedDurationS    int64         `json:"planned_duration_s"`
	FrequencyHz         int64         `json:"frequency_hz"`
	SampleRateHz        int64         `json:"sample_rate_hz"`
	RXReadyForTX        bool          `json:"rx_ready_for_tx"`
	ProcessAlive        bool          `json:"process_alive"`
	FileGrowing         bool          `json:"file_growing"`
	CommonClockVerified bool          `json:"common_clock_verified"`
	CapturePID          int64         `json:"capture_pid"`
	CaptureEndedAt      *time.Time    `json:"capture_ended_at"`
	CaptureExitCode     *int64        `json:"capture_exit_code"`
	CaptureSizeBytes    *int64        `json:"capture_size_bytes"`
	CaptureDurationS    *float64      `json:"capture_duration_s"`
	CaptureSHA256       *string       `json:"capture_sha256"`
	Overruns            *int64        `json:"overruns"`
	DroppedFrames       *int64        `json:"dropped_frames"`
	ClkinAfter          *Clkin        `json:"clkin_after"`
	RFTXObserved        *RFTXObserved `json:"rf_tx_observed"`
	RFTX                int           `json:"rf_tx"`
	// Simulated is written only for rfhandoff's simulator
	// (PROTOCOL#simulator), so a HackRF's result is byte for byte unchanged.
	Simulated bool `json:"simulated,omitempty"`
	// Alignment is a scheduled task's alignment (PROTOCOL#result), written last.
	Alignment *Alignment `json:"-"`
}
