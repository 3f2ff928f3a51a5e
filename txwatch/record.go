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

// RecordVersion is the only record_version read and written.
const RecordVersion = 2

// maxRecordBytes bounds an authorization record; real ones are under 1 KiB.
const maxRecordBytes = 16 << 10

// Record is one authorization written by tx watch and consumed, once, by
// tx execute: it binds the phrase to exact bytes and TX parameters.
type Record struct {
	RecordVersion int    `json:"record_version"`
	TaskID        string `json:"task_id"`
	// The first receiver's branch and commit, and SetDigest(Nodes).
	ResultBranch  string        `json:"result_branch"`
	ResultCommit  string        `json:"result_commit"`
	ResultSHA256  string        `json:"result_sha256"`
	CaptureEndsAt time.Time     `json:"capture_ends_at"` // for the operator
	AuthorizedAt  time.Time     `json:"authorized_at"`
	ExpiresAt     time.Time     `json:"expires_at"`    // txgate.ReadyUntil with the transmission's duration_s
	RFTXStarted   bool          `json:"rf_tx_started"` // always false: a record never says anything was sent
	RFTX          int           `json:"rf_tx"`         // always 0
	TX            TXParams      `json:"tx"`
	Nodes         []NodeBinding `json:"nodes"` // in RX_NODES order (PROTOCOL#several-nodes)
}

func NewRecord(taskID string, bound []NodeBinding, captureEnds, now, expires time.Time, params TXParams) Record {
	return Record{
		RecordVersion: RecordVersion, TaskID: taskID,
		ResultBranch: bound[0].ResultBranch, ResultCommit: bound[0].ResultCommit, ResultSHA256: SetDigest(bound),
		CaptureEndsAt: captureEnds, AuthorizedAt: now, ExpiresAt: expires, TX: params, Nodes: bound,
	}
}

// NodeBinding is one receiver's READY in a record.
type NodeBinding struct {
	Node         string `json:"node,omitempty"` // "" without RX_NODES
	ResultBranch string `json:"result_branch"`
	ResultCommit string `json:"result_commit"`
	ResultSHA256 string `json:"result_sha256"`
	// ResultSigner is the signer's key fingerprint ("" when no signature
	// was required); tx execute requires the same signer.
	ResultSigner string `json:"result_signer,omitempty"`
}

// TXParams are the [tx] values an authorization was given for.
type TXParams struct {
	Action       string `json:"action"`
	FrequencyHz  int64  `json:"frequency_hz"`
	SampleRateHz int64  `json:"sample_rate_hz"`
	TXVGAGainDB  int    `json:"tx_vga_gain_db"`
	Amp          bool   `json:"amp"`
	DurationS    int    `json:"duration_s"`
	IQFile       string `json:"iq_file"`
}

func ParamsOf(pol config.Policy) TXParams {
	t := pol.TX
	return TXParams{
		Action: t.Action, FrequencyHz: t.FrequencyHz, SampleRateHz: t.SampleRateHz,
		TXVGAGainDB: t.TXVGAGainDB, Amp: t.Amp, DurationS: t.DurationS, IQFile: t.IQFile,
	}
}

// Diff describes each parameter that differs between p (authorized) and q (now).
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

// RecordName is <TASK_ID>-<12 hex of the digest>.json: one result has one
// record, and a copy under another name does not match its content.
func RecordName(taskID, digest string) string {
	if len(digest) > 12 {
		digest = digest[:12]
	}
	return taskID + "-" + digest + ".json"
}

// OutcomeName is the file tx execute writes beside a record.
func OutcomeName(recordName string) string {
	return strings.TrimSuffix(recordName, ".json") + ".outcome.json"
}

// encodeRecord writes r as indented JSON in UTC, refusing a record
// ParseRecord would reject.
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
