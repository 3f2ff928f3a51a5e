package txwatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"rfhandoff/config"
	"rfhandoff/ident"
)

// RecordVersion is the only record_version this package reads and writes.
// Version 1 kept a single receiver's record apart from a set of nodes';
// since version 2 every record binds a list of receivers (one or more).
const RecordVersion = 2

// maxRecordBytes bounds an authorization record; real ones are under 1 KiB.
const maxRecordBytes = 16 << 10

// Record is one authorization written by tx watch and consumed, once, by
// tx execute. It binds the operator's phrase to exact bytes: for each
// receiver (Nodes: one for a task without RX_NODES, each node of RX_NODES
// otherwise) the result branch commit and the SHA-256 of RX_RESULT.json,
// and the TX parameters that were shown. Its field order is the order it
// is written in.
type Record struct {
	RecordVersion int    `json:"record_version"`
	TaskID        string `json:"task_id"`
	// ResultBranch and ResultCommit are the first receiver's, ResultSHA256
	// is SetDigest(Nodes): what the file name, the outcome and the audit
	// lines name.
	ResultBranch string `json:"result_branch"`
	ResultCommit string `json:"result_commit"`
	ResultSHA256 string `json:"result_sha256"`
	// CaptureEndsAt is capture_started_at + planned_duration_s, for the
	// operator's information.
	CaptureEndsAt time.Time `json:"capture_ends_at"`
	AuthorizedAt  time.Time `json:"authorized_at"`
	// ExpiresAt is the last moment tx execute's re-check can still pass on
	// time (txgate.ReadyUntil with the transmission's duration_s).
	ExpiresAt time.Time `json:"expires_at"`
	// RFTXStarted and RFTX are always false and 0: a record authorizes, it
	// never says that anything was sent (the outcome file does).
	RFTXStarted bool     `json:"rf_tx_started"`
	RFTX        int      `json:"rf_tx"`
	TX          TXParams `json:"tx"`
	// Nodes binds each receiver's READY, in the order of the task's
	// RX_NODES (PROTOCOL#several-nodes); a task without RX_NODES has one receiver,
	// without a node name.
	Nodes []NodeBinding `json:"nodes"`
}

// NewRecord is the record binding the READYs bound for task taskID.
func NewRecord(taskID string, bound []NodeBinding, captureEnds, now, expires time.Time, params TXParams) Record {
	return Record{
		RecordVersion: RecordVersion, TaskID: taskID,
		ResultBranch: bound[0].ResultBranch, ResultCommit: bound[0].ResultCommit, ResultSHA256: SetDigest(bound),
		CaptureEndsAt: captureEnds, AuthorizedAt: now, ExpiresAt: expires, TX: params, Nodes: bound,
	}
}

// NodeBinding is one receiver's READY in a record.
type NodeBinding struct {
	// Node is the node's name; "" for the single receiver of a task
	// without RX_NODES.
	Node         string `json:"node,omitempty"`
	ResultBranch string `json:"result_branch"`
	ResultCommit string `json:"result_commit"`
	ResultSHA256 string `json:"result_sha256"`
	// ResultSigner is the SHA256 fingerprint of the key whose good
	// signature the result carried; omitted when no signature was
	// required. tx execute requires the same signer.
	ResultSigner string `json:"result_signer,omitempty"`
}

// TXParams are the [tx] values an authorization was given for. tx execute
// refuses a record whose parameters differ from the policy in force.
type TXParams struct {
	Action       string `json:"action"`
	FrequencyHz  int64  `json:"frequency_hz"`
	SampleRateHz int64  `json:"sample_rate_hz"`
	TXVGAGainDB  int    `json:"tx_vga_gain_db"`
	Amp          bool   `json:"amp"`
	DurationS    int    `json:"duration_s"`
	IQFile       string `json:"iq_file"`
}

// ParamsOf is the policy's [tx] parameters as a record holds them.
func ParamsOf(pol config.Policy) TXParams {
	t := pol.TX
	return TXParams{
		Action: t.Action, FrequencyHz: t.FrequencyHz, SampleRateHz: t.SampleRateHz,
		TXVGAGainDB: t.TXVGAGainDB, Amp: t.Amp, DurationS: t.DurationS, IQFile: t.IQFile,
	}
}

// Diff describes each parameter that differs between p (authorized) and
// q (the policy now), one entry per key; nil when they are equal.
func (p TXParams) Diff(q TXParams) []string {
	var out []string
	add := func(key string, a, b any) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: authorized %v, policy now %v", key, a, b))
		}
	}
	add("action", p.Action, q.Action)
	add("frequency_hz", p.FrequencyHz, q.FrequencyHz)
	add("sample_rate_hz", p.SampleRateHz, q.SampleRateHz)
	add("tx_vga_gain_db", p.TXVGAGainDB, q.TXVGAGainDB)
	add("amp", p.Amp, q.Amp)
	add("duration_s", p.DurationS, q.DurationS)
	add("iq_file", fmt.Sprintf("%q", p.IQFile), fmt.Sprintf("%q", q.IQFile))
	return out
}

var recordNameRe = regexp.MustCompile(`^(` + ident.TaskID.Inner() + `)-([0-9a-f]{12})\.json$`)

// RecordName is the file name of the record for a result: the TASK_ID and
// the first 12 hex digits of the result's digest. One result can have only
// one record, and a copy under another name does not match its content.
func RecordName(taskID, digest string) string {
	if len(digest) > 12 {
		digest = digest[:12]
	}
	return taskID + "-" + digest + ".json"
}

// OutcomeName is the file tx execute writes beside a record: the record's
// name without ".json", then ".outcome.json".
func OutcomeName(recordName string) string {
	return strings.TrimSuffix(recordName, ".json") + ".outcome.json"
}

// encodeRecord writes r as indented JSON with a trailing newline, in UTC.
// It refuses a record ParseRecord would reject.
func encodeRecord(r Record) ([]byte, error) {
	r.CaptureEndsAt = r.CaptureEndsAt.UTC()
	r.AuthorizedAt = r.AuthorizedAt.UTC()
	r.ExpiresAt = r.ExpiresAt.UTC()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("encode authorization record: %w", err)
	}
	if _, err := ParseRecord(buf.Bytes()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
