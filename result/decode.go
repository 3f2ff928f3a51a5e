package result

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"rfhandoff/localfile"
	"rfhandoff/strictjson"
)

// Options tunes Decode.
type Options struct {
	// MaxBytes tightens the 64 KiB limit; it can't loosen it.
	MaxBytes int64
	TaskID   string // when set, task_id must equal it
	// PlannedDurationS, when positive, is the value planned_duration_s must
	// equal: the task's CAPTURE_DURATION_S (PlannedByTask), else the policy's.
	PlannedDurationS int64
	PlannedByTask    bool
	// Node says which results are acceptable (PROTOCOL#several-nodes): ""
	// only a single-node result; AnyNode either; a node name only a node
	// result from that node.
	Node string
	// SyncMode and StartAt say which results are acceptable by alignment
	// (PROTOCOL#result): zero only a result without alignment; SyncMode
	// AnySync either; otherwise only a scheduled result with these values.
	SyncMode SyncMode
	StartAt  time.Time
}

// AnyNode, as Options.Node, accepts single-node and node results alike.
const AnyNode = "*"

func (o Options) limit() int64 {
	if o.MaxBytes > 0 && o.MaxBytes < MaxBytes {
		return o.MaxBytes
	}
	return MaxBytes
}

var bom = []byte("\xEF\xBB\xBF")

// Decode parses data strictly as one RX_RESULT.json, returning every
// violation at once; document-level problems stop it early.
func Decode(data []byte, opts Options) (*Result, error) {
	r, _, err := DecodeNode(data, opts)
	return r, err
}

// DecodeNode is Decode returning a node result's NodeFields too.
func DecodeNode(data []byte, opts Options) (*Result, NodeFields, error) {
	var p problems
	var m members
	switch limit := opts.limit(); {
	case int64(len(data)) > limit:
		p.add("", ruleSize, "is %d bytes, more than the limit of %d", len(data), limit)
	case bytes.HasPrefix(data, bom):
		p.add("", ruleEncoding, "starts with a UTF-8 byte-order mark; JSON must not have one (RFC 8259 §8.1)")
	case !utf8.Valid(data):
		p.add("", ruleEncoding, "is not valid UTF-8 (first bad byte at offset %d)", firstInvalidUTF8(data))
	default:
		m, _ = walk(data, &p)
	}
	if len(p) > 0 {
		return nil, NodeFields{}, p.err()
	}

	r, nf := &Result{}, NodeFields{}
	good, fps := strictjson.Fields(m, fields, r, laterKeys...)
	p.fields("", fps)
	checkNode(m, r, good, opts.Node, &nf, &p)
	checkState(m, r, good, &p)
	if opts.TaskID != "" && good["task_id"] && r.TaskID != opts.TaskID {
		p.add("task_id", ruleTaskID, "is %q, but the current task is %q", r.TaskID, opts.TaskID)
	}
	if opts.PlannedDurationS > 0 && good["planned_duration_s"] && r.PlannedDurationS != opts.PlannedDurationS {
		from := "the policy's limits.planned_duration_s"
		if opts.PlannedByTask {
			from = "the task's CAPTURE_DURATION_S"
		}
		p.add("planned_duration_s", rulePolicy, "is %d, but %s is %d", r.PlannedDurationS, from, opts.PlannedDurationS)
	}
	checkAlignment(m, r, good, opts, &p) // the last key
	if err := p.err(); err != nil {
		return nil, NodeFields{}, err
	}
	return r, nf, nil
}

func (p *problems) fields(prefix string, fps []strictjson.Problem) {
	for _, fp := range fps {
		switch fp.Kind {
		case strictjson.UnknownKey:
			p.add(prefix+fp.Key, ruleUnknownKey, "%s", fp.Reason)
		case strictjson.DuplicateKey:
			words := map[bool]string{true: "same value", false: "different values"}[fp.Same]
			p.add(prefix+fp.Key, ruleDuplicate, "duplicate key (%d times, %s)", fp.Count, words)
		case strictjson.MissingKey:
			p.add(prefix+fp.Key, ruleMissing, "%s", fp.Reason)
		default:
			p.add(prefix+fp.Key, ruleValue, "%s", fp.Reason)
		}
	}
}

func firstInvalidUTF8(data []byte) int {
	s := string(data)
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return i
		}
	}
	return len(data)
}

// ReadFile reads and decodes a result file, returning the exact bytes read,
// which are what a digest must cover.
func ReadFile(path string, opts Options) (*Result, []byte, error) {
	limit := opts.limit()
	data, err := localfile.ReadRegular(path, limit)
	var big *localfile.TooLargeError
	if errors.As(err, &big) {
		why := fmt.Sprintf("is more than the limit of %d bytes", limit)
		return nil, nil, &invalidError{Source: path, Errs: problems{{Rule: ruleSize, Reason: why}}}
	}
	if err != nil {
		return nil, nil, err
	}
	r, err := Decode(data, opts)
	if ie, ok := err.(*invalidError); ok {
		ie.Source = path
		return nil, data, ie
	}
	return r, data, err
}

// SHA256 is the digest the TX side keys a result by, of the exact bytes.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
