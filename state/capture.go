package state

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/ident"
	nodename "rfhandoff/node"
)

// CaptureInProgress is an `rx capture` whose READY may be published and
// whose COMPLETE is not yet: written just before READY, cleared after
// COMPLETE. Found while no capture holds the capture lock, it is a killed
// capture, for which the next `rx capture` or `rx watch` publishes an
// honest COMPLETE.
type CaptureInProgress struct {
	TaskID     string `json:"task_id"`
	DataPath   string `json:"data_path"`   // the .sigmf-data file, absolute
	CapturePID int    `json:"capture_pid"` // hackrf_transfer
	// CaptureStart is the tool's exec.ProcessStart, so a reused pid is not
	// taken for it; 0 where none is known (macOS, older records).
	CaptureStart int64 `json:"capture_start"`
	RfhandoffPID int   `json:"rfhandoff_pid"` // the rx capture that wrote the record
	// Serial is the pinned board ("" for none), for clkin_after's hackrf_clock.
	Serial           string    `json:"serial"`
	StartedAt        time.Time `json:"started_at"` // capture_started_at
	SourceHead       string    `json:"source_head"`
	PlannedDurationS int64     `json:"planned_duration_s"`
	FrequencyHz      int64     `json:"frequency_hz"`
	SampleRateHz     int64     `json:"sample_rate_hz"`
	// ReadyPublished is set once READY's publish returned (it may have
	// landed before that).
	ReadyPublished bool   `json:"ready_published"`
	ReadyCommit    string `json:"ready_commit"` // "" until ReadyPublished
	// CompleteSHA256 and CompleteNotes are the COMPLETE written beside the
	// capture before its publish: a recovery publishes exactly those bytes
	// again, so one that had landed is a no-op, never a second COMPLETE.
	CompleteSHA256 string   `json:"complete_sha256"`
	CompleteNotes  []string `json:"complete_notes"`
	// CompleteError is why the last publish of that COMPLETE failed, for rx status.
	CompleteError string `json:"complete_error"`
	// CompleteRefused: a check refused it for what it is; retrying will not
	// help, a person must decide.
	CompleteRefused bool `json:"complete_refused"`
	// Capture is the plan that runs, for a recovery's SigMF metadata; null in
	// older records.
	Capture *captureplan.Plan `json:"capture"`
	// Node is this node's name for a task with RX_NODES (PROTOCOL#several-nodes).
	Node string `json:"node,omitempty"`
	// Simulated: the simulator captures (PROTOCOL#simulator); a recovered
	// COMPLETE says so too.
	Simulated bool `json:"simulated,omitempty"`
}

// validate appends every problem of c to errs, keys prefixed as in the file.
func (c *CaptureInProgress) validate(errs []error) []error {
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("capture_in_progress."+format, a...))
	}
	if !ident.TaskID.MatchString(c.TaskID) {
		bad("task_id %q is not a TASK_ID", c.TaskID)
	}
	if c.DataPath == "" || !filepath.IsAbs(c.DataPath) || filepath.Clean(c.DataPath) != c.DataPath {
		bad("data_path %q is not a clean absolute path", c.DataPath)
	}
	if c.CapturePID <= 0 {
		bad("capture_pid %d is not positive", c.CapturePID)
	}
	if c.CaptureStart < 0 {
		bad("capture_start %d is negative", c.CaptureStart)
	}
	if c.RfhandoffPID <= 0 {
		bad("rfhandoff_pid %d is not positive", c.RfhandoffPID)
	}
	if c.Node != "" && nodename.Check(c.Node) != "" {
		bad("node: %s", nodename.Check(c.Node))
	}
	if c.Serial != "" && !ident.Serial.MatchString(c.Serial) {
		bad("serial %q is not 1 to 32 lowercase hex digits", c.Serial)
	}
	if c.StartedAt.IsZero() {
		bad("started_at is missing")
	}
	if !ident.Commit.MatchString(c.SourceHead) {
		bad("source_head %q is not a 40-hex commit ID", c.SourceHead)
	}
	for _, f := range []struct {
		key string
		v   int64
	}{{"planned_duration_s", c.PlannedDurationS}, {"frequency_hz", c.FrequencyHz}, {"sample_rate_hz", c.SampleRateHz}} {
		if f.v <= 0 {
			bad("%s %d is not positive", f.key, f.v)
		}
	}
	switch {
	case c.ReadyCommit != "" && !ident.Commit.MatchString(c.ReadyCommit):
		bad("ready_commit %q is not a 40-hex commit ID", c.ReadyCommit)
	case c.ReadyCommit != "" && !c.ReadyPublished:
		bad("ready_commit %s is set but ready_published is false", c.ReadyCommit)
	}
	if c.Capture != nil {
		errs = c.Capture.Validate("capture_in_progress.capture", errs)
	}
	switch {
	case c.CompleteSHA256 != "" && !ident.SHA256.MatchString(c.CompleteSHA256):
		bad("complete_sha256 %q is not a 64-hex SHA-256", c.CompleteSHA256)
	case c.CompleteSHA256 == "" && len(c.CompleteNotes) > 0:
		bad("complete_notes without a complete_sha256")
	}
	return errs
}

// Clone is a deep copy (nil for nil).
func (c *CaptureInProgress) Clone() *CaptureInProgress {
	if c == nil {
		return nil
	}
	d := *c
	d.CompleteNotes = slices.Clone(c.CompleteNotes)
	if c.Capture != nil {
		p := *c.Capture
		d.Capture = &p
	}
	return &d
}

// Same reports whether c and o record the same capture (whatever was
// published of it since).
func (c *CaptureInProgress) Same(o *CaptureInProgress) bool {
	return c != nil && o != nil && c.TaskID == o.TaskID && c.CapturePID == o.CapturePID && c.CaptureStart == o.CaptureStart &&
		c.RfhandoffPID == o.RfhandoffPID && c.StartedAt.Equal(o.StartedAt) && c.DataPath == o.DataPath
}
