package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Encode writes r as canonical RX_RESULT.json: keys in the PROTOCOL#result table's
// order, two-space indent, a trailing newline. It refuses (with the same
// *invalidError Decode would give) a result that Decode would reject, so
// nothing invalid is ever written.
func Encode(r *Result) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("result: Encode of a nil *Result")
	}
	c := canonical(*r)
	if c.Alignment == nil {
		return encode(&c, Options{})
	}
	// A scheduled result: version 3, alignment last.
	if err := c.Alignment.encodable(); err != nil {
		return nil, err
	}
	c.SchemaVersion = ScheduledSchemaVersion
	return encode(&struct {
		Result
		Alignment *Alignment `json:"alignment"`
	}{c, c.Alignment}, Options{SyncMode: AnySync})
}

// canonical moves c's times to offsets RFC 3339 can write.
func canonical(c Result) Result {
	c.PublishedAt = minuteOffset(c.PublishedAt)
	c.CaptureStartedAt = minuteOffset(c.CaptureStartedAt)
	if c.CaptureEndedAt != nil {
		c.CaptureEndedAt = new(minuteOffset(*c.CaptureEndedAt))
	}
	return c
}

// encode writes doc (a *Result, or one with NodeFields and alignment
// after it; encodable checked the alignment) and checks the bytes with
// Decode under opts.
func encode(doc any, opts Options) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// The struct's field order and tags are the table (checked by a test);
	// time.Time writes RFC 3339 with its offset.
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("result: encode: %w", err)
	}
	if _, err := Decode(buf.Bytes(), opts); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// minuteOffset moves t to UTC when its zone's offset has seconds (old
// local-mean-time zones): RFC 3339 writes only hh:mm, and the instant
// would silently shift.
func minuteOffset(t time.Time) time.Time {
	if _, off := t.Zone(); off%60 != 0 {
		return t.UTC()
	}
	return t
}
