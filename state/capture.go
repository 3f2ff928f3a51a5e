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

// CaptureInProgress is an `rx capture` whose READY may be on the result
// branch and whose COMPLETE is not yet: written (in rx_agent_state.json,
// key capture_in_progress) just before READY is published and cleared once
// COMPLETE is. A record found while no capture holds the capture lock is a
// capture whose rfhandoff was killed: the next `rx capture` or `rx watch`
// publishes an honest COMPLETE for it from what the record holds (the
// READY's facts) and from the file.
type CaptureInProgress struct {
	TaskID     string `json:"task_id"`
	DataPath   string `json:"data_path"`   // the .sigmf-data file, absolute
	CapturePID int    `json:"capture_pid"` // hackrf_transfer
	// CaptureStart is hackrf_transfer's exec.ProcessStart, read when the record
	// is written: a recovery treats only a process under CapturePID with
	// this same start as the capture's tool (a pid may have been reused).
	// 0 where none is known (macOS, or a record from before this field:
	// a missing key reads as 0), and then the pid is checked without it.
	CaptureStart int64 `json:"capture_start"`
	RfhandoffPID int   `json:"rfhandoff_pid"` // the rx capture that wrote the record
	// Serial is the board the capture used ("" when none was pinned), for
	// the `hackrf_clock -i` that gives clkin_after.
	Serial           string    `json:"serial"`
	StartedAt        time.Time `json:"started_at"` // capture_started_at
	SourceHead       string    `json:"source_head"`
	PlannedDurationS int64     `json:"planned_duration_s"`
	FrequencyHz      int64     `json:"frequency_hz"`
	SampleRateHz     int64     `json:"sample_rate_hz"`
	// ReadyPublished is set once READY's publish returned; false while it
	// runs (it may have landed all the same).
	ReadyPublished bool   `json:"ready_published"`
	ReadyCommit    string `json:"ready_commit"` // "" until ReadyPublished
	// CompleteSHA256 is the SHA-256 of the COMPLETE written beside the
	// capture (RX_RESULT.json) just before it is published, and
	// CompleteNotes the notes its RX_RESULT.md is rendered with: a
	// recovery publishes exactly those bytes again, so a COMPLETE that had
	// landed is the publisher's no-op, never a second, different COMPLETE.
	// "" and [] while no COMPLETE was written.
	CompleteSHA256 string   `json:"complete_sha256"`
	CompleteNotes  []string `json:"complete_notes"`
	// CompleteError is why the last attempt to publish that COMPLETE
	// failed, for rx status; "" before any failed (a file written before
	// the key existed reads as "").
	CompleteError string `json:"complete_error"`
	// CompleteRefused is set when the publisher refused it for what it or
	// its task is (a check other than the result branch's existence):
	// trying again as it is will not help, a person must decide.
	CompleteRefused bool `json:"complete_refused"`
	// Capture is the capture plan that runs (gains, amp, antenna power
	// among it), for the SigMF metadata a recovery writes; null in a
	// record written before the key existed.
	Capture *captureplan.Plan `json:"capture"`
	// Node is the [node] name the results of a task with RX_NODES carry
	// (PROTOCOL#several-nodes); absent for a single-node task, whose COMPLETE is a
	// version 1 result.
	Node string `json:"node,omitempty"`
	// Simulated: rfhandoff's HackRF simulator captures (PROTOCOL#simulator), as
	// [tools] allow_simulator allowed; its recovered COMPLETE says so
	// too. Absent for a HackRF's capture.
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
