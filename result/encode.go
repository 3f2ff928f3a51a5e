package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Encode writes r as canonical RX_RESULT.json, keys in the PROTOCOL#result
// table's order. It refuses a result that Decode would reject, so nothing
// invalid is ever written.
func Encode(r *Result) ([]byte, error) { return encode("Encode", r, nil) }

// EncodeNode writes a node result: Encode's form with NodeFields after rf_tx.
func EncodeNode(r *Result, n NodeFields) ([]byte, error) { return encode("EncodeNode", r, &n) }

// encode checks its bytes with Decode under options that accept them.
func encode(fn string, r *Result, n *NodeFields) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("result: %s of a nil *Result", fn)
	}
	c := canonical(*r)
	var opts Options
	if n != nil {
		c.SchemaVersion, opts.Node = NodeSchemaVersion, n.Node
	}
	if c.Alignment != nil {
		if err := c.Alignment.encodable(); err != nil {
			return nil, err
		}
		c.SchemaVersion, opts.SyncMode = ScheduledSchemaVersion, AnySync
	}
	// The struct's field order and tags are the table (checked by a test).
	out, err := jsonText(struct {
		Result
		*NodeFields
		Alignment *Alignment `json:"alignment,omitempty"`
	}{c, n, c.Alignment}, "  ")
	if err != nil {
		return nil, fmt.Errorf("result: encode: %w", err)
	}
	out = append(out, '\n')
	if _, err := Decode(out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

func canonical(c Result) Result {
	c.PublishedAt = minuteOffset(c.PublishedAt)
	c.CaptureStartedAt = minuteOffset(c.CaptureStartedAt)
	if c.CaptureEndedAt != nil {
		c.CaptureEndedAt = new(minuteOffset(*c.CaptureEndedAt))
	}
	return c
}

func jsonText(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// minuteOffset moves t to UTC when its zone's offset has seconds: RFC 3339
// writes only hh:mm, and the instant would silently shift.
func minuteOffset(t time.Time) time.Time {
	if _, off := t.Zone(); off%60 != 0 {
		return t.UTC()
	}
	return t
}
