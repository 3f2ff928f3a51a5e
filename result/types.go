package result

import "time"

// State is the result's state.
type State string

// The two states a result can be in.
const (
	StateReady    State = "RX_READY_FOR_TX"
	StateComplete State = "CAPTURE_COMPLETE"
)

// Clkin is what `hackrf_clock -i` reported after the capture.
type Clkin string

// Values of clkin_after.
const (
	ClkinDetected    Clkin = "DETECTED"
	ClkinNotDetected Clkin = "NOT_DETECTED"
)

// RFTXObserved is the energy detector's verdict. The receiver never claims
// that nothing was sent, so there is no "none" value.
type RFTXObserved string

// Values of rf_tx_observed.
const (
	RFTXExpectedExternal RFTXObserved = "EXPECTED_EXTERNAL_TX"
	RFTXUnknown          RFTXObserved = "UNKNOWN"
)

// SchemaVersion is the schema_version of a single-node result.
const SchemaVersion = 1

// NodeSchemaVersion is the schema_version of a node result, one for a task
// with RX_NODES: SchemaVersion's keys plus NodeFields (PROTOCOL#several-nodes).
const NodeSchemaVersion = 2

// MaxBytes is the protocol's size limit for RX_RESULT.json (and RX_RESULT.md).
const MaxBytes = 64 << 10

// Result is one RX_RESULT.json. Fields are in the order of the PROTOCOL#result table,
// which is also the order Encode writes them. Pointer fields are the ones
// that may be null. Read results with Decode only: json.Unmarshal would fold
// key case and keep the last of duplicate keys.
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
	// Simulated is true for a capture by rfhandoff's HackRF simulator
	// (PROTOCOL#simulator): the one optional key, written only then ("simulated":
	// true), so a result from a HackRF is byte for byte what it was before
	// the key existed.
	Simulated bool `json:"simulated,omitempty"`
	// Alignment is a scheduled task's alignment (schema_version 3,
	// PROTOCOL#result), nil for any other result. Encode writes it last,
	// after a node result's keys.
	Alignment *Alignment `json:"-"`
}
