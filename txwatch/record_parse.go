package txwatch

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"rfhandoff/config"
	"rfhandoff/gitcli/gitname"
	"rfhandoff/ident"
	"rfhandoff/node"
	"rfhandoff/strictjson"
)

// recordFieldError is one problem with a record at Key ("" for the whole).
type recordFieldError struct {
	Key    string
	Reason string
}

func (e *recordFieldError) Error() string {
	if e.Key == "" {
		return "record " + e.Reason
	}
	return strconv.Quote(e.Key) + ": " + e.Reason
}

// invalidRecordError is a malformed record, with every problem found.
type invalidRecordError struct {
	Source string // the file, when known
	Errs   []error
}

func (e *invalidRecordError) Error() string {
	src := cmp.Or(e.Source, "authorization record")
	if len(e.Errs) == 1 {
		return fmt.Sprintf("%s is invalid: %v", src, e.Errs[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is invalid (%d problems):", src, len(e.Errs))
	for _, err := range e.Errs {
		b.WriteString("\n  - " + err.Error())
	}
	return b.String()
}

func (e *invalidRecordError) Unwrap() []error { return e.Errs }

type recProblems []error

func (p *recProblems) add(key, format string, args ...any) {
	*p = append(*p, &recordFieldError{Key: key, Reason: fmt.Sprintf(format, args...)})
}

func (p recProblems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &invalidRecordError{Errs: p}
}

var recordFields = []strictjson.Field[Record]{
	{Key: "record_version", Check: func(r *Record, v jvalue) string {
		n, why := strictjson.Int(v)
		switch {
		case why == "" && n < RecordVersion:
			why = fmt.Sprintf("must be %d, got %d: an earlier rfhandoff wrote it; authorize the result again with tx watch", RecordVersion, n)
		case why == "" && n != RecordVersion:
			why = fmt.Sprintf("must be %d, got %d", RecordVersion, n)
		}
		r.RecordVersion = int(n)
		return why
	}},
	{Key: "task_id", Check: func(r *Record, v jvalue) string { return strictjson.Match(v, ident.TaskID, "a TASK_ID", &r.TaskID) }},
	{Key: "result_branch", Check: func(r *Record, v jvalue) string { return jBranch(v, &r.ResultBranch) }},
	{Key: "result_commit", Check: func(r *Record, v jvalue) string { return jCommit(v, &r.ResultCommit) }},
	{Key: "result_sha256", Check: func(r *Record, v jvalue) string { return jSHA256(v, &r.ResultSHA256) }},
	{Key: "capture_ends_at", Check: func(r *Record, v jvalue) string { return jTime(v, &r.CaptureEndsAt) }},
	{Key: "authorized_at", Check: func(r *Record, v jvalue) string { return jTime(v, &r.AuthorizedAt) }},
	{Key: "expires_at", Check: func(r *Record, v jvalue) string { return jTime(v, &r.ExpiresAt) }},
	{Key: "rf_tx_started", Check: func(r *Record, v jvalue) string {
		var b bool
		why := strictjson.Boolean(v, &b)
		if why == "" && b {
			why = "must be false: a record authorizes, it never records a transmission"
		}
		return why
	}},
	{Key: "rf_tx", Check: func(r *Record, v jvalue) string {
		n, why := strictjson.Int(v)
		if why == "" && n != 0 {
			why = fmt.Sprintf("must be 0 in an authorization record, got %d", n)
		}
		return why
	}},
	// Checked by ParseRecord and parseNodes.
	{Key: "tx", Check: checkedApart[Record]},
	{Key: "nodes", Check: checkedApart[Record]},
}

// A binding's result_signer is written only when a signature was
// required, its node only for a node of RX_NODES.
var nodeFields = []strictjson.Field[NodeBinding]{
	{Key: "node", Optional: true, Check: func(b *NodeBinding, v jvalue) string {
		n, why := strictjson.Str(v, "a string")
		if why == "" && node.Check(n) != "" {
			why = "must be a node name (" + node.Pattern() + "), got " + v.Describe()
		}
		b.Node = n
		return why
	}},
	{Key: "result_branch", Check: func(b *NodeBinding, v jvalue) string { return jBranch(v, &b.ResultBranch) }},
	{Key: "result_commit", Check: func(b *NodeBinding, v jvalue) string { return jCommit(v, &b.ResultCommit) }},
	{Key: "result_sha256", Check: func(b *NodeBinding, v jvalue) string { return jSHA256(v, &b.ResultSHA256) }},
	{Key: "result_signer", Optional: true, Check: func(b *NodeBinding, v jvalue) string {
		return strictjson.Match(v, ident.Fingerprint, "an SSH key fingerprint (SHA256:...)", &b.ResultSigner)
	}},
}

// parseNodes reads "nodes": one receiver without a name, or up to node.Max
// distinct nodes; the first's branch and commit are the record's, and
// SetDigest is its result_sha256.
func parseNodes(v jvalue, r *Record, good map[string]bool, p *recProblems) {
	if v.Kind != strictjson.Array {
		p.add("nodes", "must be an array, got %s", v.Describe())
		return
	}
	if n := len(v.Elements); n == 0 || n > node.Max {
		p.add("nodes", "must list 1 to %d nodes, got %d", node.Max, n)
		return
	}
	seen := map[string]bool{}
	ok := true
	for i, e := range v.Elements {
		prefix := fmt.Sprintf("nodes[%d].", i)
		if e.Kind != strictjson.Object {
			p.add(prefix[:len(prefix)-1], "must be an object, got %s", e.Describe())
			ok = false
			continue
		}
		var b NodeBinding
		got := checkKeys(e.Members, nodeFields, prefix, &b, p)
		if !got["result_branch"] || !got["result_commit"] || !got["result_sha256"] {
			ok = false
		}
		switch _, named := e.Members.Values["node"]; {
		case named && !got["node"]:
			ok = false
		case !named && len(v.Elements) > 1:
			p.add(prefix+"node", "is missing (only the one receiver of a task without RX_NODES has no node name)")
			ok = false
		case seen[b.Node] && b.Node != "":
			p.add(prefix+"node", "repeats node %q", b.Node)
		}
		seen[b.Node] = true
		r.Nodes = append(r.Nodes, b)
	}
	if !ok {
		return
	}
	first := r.Nodes[0]
	if good["result_branch"] && good["result_commit"] && (r.ResultBranch != first.ResultBranch || r.ResultCommit != first.ResultCommit) {
		p.add("nodes", "the first node's branch and commit (%s at %s) must be the record's result_branch and result_commit", first.ResultBranch, first.ResultCommit)
	}
	if good["result_sha256"] && r.ResultSHA256 != SetDigest(r.Nodes) {
		p.add("result_sha256", "must be the digest of the nodes' READYs (%s)", SetDigest(r.Nodes))
	}
}

var txFields = []strictjson.Field[TXParams]{
	{Key: "action", Check: func(p *TXParams, v jvalue) string {
		s, why := strictjson.Str(v, "a string")
		if why == "" && s != config.TXActionFake && s != config.TXActionHackRFTransfer {
			why = fmt.Sprintf("must be %q or %q, got %s", config.TXActionFake, config.TXActionHackRFTransfer, v.Describe())
		}
		p.Action = s
		return why
	}},
	{Key: "frequency_hz", Check: func(p *TXParams, v jvalue) string {
		return strictjson.Range(v, config.MinFrequencyHz, config.MaxFrequencyHz, &p.FrequencyHz)
	}},
	{Key: "sample_rate_hz", Check: func(p *TXParams, v jvalue) string {
		return strictjson.Range(v, config.MinSampleRateHz, config.MaxSampleRateHz, &p.SampleRateHz)
	}},
	{Key: "tx_vga_gain_db", Check: func(p *TXParams, v jvalue) string { return jInt(v, 0, config.MaxTXVGAGainDB, &p.TXVGAGainDB) }},
	{Key: "amp", Check: func(p *TXParams, v jvalue) string {
		return strictjson.Boolean(v, &p.Amp)
	}},
	{Key: "duration_s", Check: func(p *TXParams, v jvalue) string { return jInt(v, 1, config.MaxTXDurationS, &p.DurationS) }},
	{Key: "iq_file", Check: func(p *TXParams, v jvalue) string {
		s, why := strictjson.Str(v, "a string")
		if why == "" && len(s) > 4096 {
			why = "must be at most 4096 bytes"
		}
		if why == "" && strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			why = "must not contain control characters"
		}
		p.IQFile = s
		return why
	}},
}

func jBranch(v jvalue, dst *string) string {
	s, why := strictjson.Str(v, "a string")
	if why != "" {
		return why
	}
	if gitname.Branch(s) != "" {
		return "must be a branch name, got " + v.Describe()
	}
	*dst = s
	return ""
}

func jInt(v jvalue, lo, hi int64, dst *int) string {
	var n int64
	why := strictjson.Range(v, lo, hi, &n)
	*dst = int(n)
	return why
}

func jCommit(v jvalue, dst *string) string {
	return strictjson.Match(v, ident.Commit, "40 lowercase hex digits (a commit ID)", dst)
}

func jSHA256(v jvalue, dst *string) string {
	return strictjson.Match(v, ident.SHA256, "64 lowercase hex digits (a SHA-256)", dst)
}

func jTime(v jvalue, dst *time.Time) string {
	return strictjson.Time(v, ident.Timestamp, "an RFC 3339 timestamp with an explicit offset", dst)
}

func checkedApart[T any](*T, jvalue) string { return "" }

// checkKeys reads o through fields, each problem under prefix+key; it
// returns the keys that were set.
func checkKeys[T any](o *jobject, fields []strictjson.Field[T], prefix string, dst *T, p *recProblems) map[string]bool {
	good, problems := strictjson.Fields(o, fields, dst)
	for _, pr := range problems {
		p.add(prefix+pr.Key, "%s", pr.Reason)
	}
	return good
}

// ParseRecord parses an authorization record strictly: bounded UTF-8
// without a BOM, one JSON object, exactly the known keys each once, values
// of the right type and range. Every problem is reported at once.
func ParseRecord(data []byte) (Record, error) {
	var p recProblems
	switch {
	case len(data) > maxRecordBytes:
		p.add("", "is %d bytes, more than the limit of %d", len(data), maxRecordBytes)
		return Record{}, p.err()
	case len(data) >= 3 && string(data[:3]) == "\xEF\xBB\xBF":
		p.add("", "starts with a UTF-8 byte-order mark")
		return Record{}, p.err()
	case !utf8.Valid(data):
		p.add("", "is not valid UTF-8")
		return Record{}, p.err()
	}
	o, err := parseJSONObject(data)
	if err != nil {
		p.add("", "%v", err)
		return Record{}, p.err()
	}
	var r Record
	good := checkKeys(o, recordFields, "", &r, &p)
	if vs := o.Values["tx"]; len(vs) == 1 {
		if vs[0].Kind != strictjson.Object {
			p.add("tx", "must be an object, got %s", vs[0].Describe())
			good["tx"] = false
		} else {
			txGood := checkKeys(vs[0].Members, txFields, "tx.", &r.TX, &p)
			good["tx"] = len(txGood) == len(txFields)
		}
	}
	if vs := o.Values["nodes"]; len(vs) == 1 {
		parseNodes(vs[0], &r, good, &p)
	}
	if good["authorized_at"] && good["expires_at"] && !r.ExpiresAt.After(r.AuthorizedAt) {
		p.add("expires_at", "must be after authorized_at (%s)", r.AuthorizedAt.Format(time.RFC3339Nano))
	}
	if good["tx"] && r.TX.Action == config.TXActionHackRFTransfer && r.TX.IQFile == "" {
		p.add("tx.iq_file", "must name the IQ file for action %q", config.TXActionHackRFTransfer)
	}
	if err := p.err(); err != nil {
		return Record{}, err
	}
	return r, nil
}
