package quicklook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"
)

// SigMF names (https://sigmf.org): a recording is x.sigmf-data with its
// metadata in x.sigmf-meta.
const (
	sigMFMetaExt  = ".sigmf-meta"
	sigMFDataExt  = ".sigmf-data"
	sigMFDatatype = "ci8" // the only datatype this package reads

	// MaxSigMFMetaBytes bounds the metadata read beside a capture.
	MaxSigMFMetaBytes = 1 << 20
	maxSigMFHz        = 1e12
)

// SigMFMeta is what the quick-look needs from SigMF metadata. Absent
// fields are zero.
type SigMFMeta struct {
	Datatype     string    // global.core:datatype
	SampleRateHz int64     // global.core:sample_rate
	FrequencyHz  int64     // captures[0].core:frequency
	Start        time.Time // captures[0].core:datetime
	// Simulated is global.rfhandoff:simulated: rfhandoff's HackRF
	// simulator recorded it (PROTOCOL#simulator).
	Simulated bool
}

// sigmfError is one problem with a metadata field (e.g.
// "global.core:sample_rate"), with its raw JSON shortened ("" when absent).
func sigmfError(field, value, problem string) error {
	if value == "" {
		return fmt.Errorf("%s: %s", field, problem)
	}
	return fmt.Errorf("%s = %s: %s", field, value, problem)
}

// SigMFMetaPaths are the metadata files that may describe the capture
// file, in the order they are tried: x.sigmf-meta for x.sigmf-data (or any
// x.ext), then file.sigmf-meta.
func SigMFMetaPaths(file string) []string {
	base := strings.TrimSuffix(file, filepath.Ext(file))
	paths := []string{base + sigMFMetaExt}
	if own := file + sigMFMetaExt; own != paths[0] {
		paths = append(paths, own)
	}
	return paths
}

// ParseSigMFMeta reads the fields the quick-look uses from SigMF metadata
// JSON, reporting every invalid one at once. Unknown fields are ignored
// (SigMF has many); a datatype other than ci8 is an error.
func ParseSigMFMeta(data []byte) (SigMFMeta, error) {
	var m SigMFMeta
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		if err == nil {
			err = fmt.Errorf("not a JSON object")
		}
		return m, sigmfError("(file)", "", "not SigMF metadata: "+err.Error())
	}
	var errs *multierror.Error
	bad := func(field string, raw json.RawMessage, format string, args ...any) {
		errs = multierror.Append(errs, sigmfError(field, shorten(raw), fmt.Sprintf(format, args...)))
	}

	global, ok := object(top["global"])
	if !ok && top["global"] != nil {
		bad("global", top["global"], "must be an object")
	}
	if raw, ok := global["core:datatype"]; ok {
		if err := json.Unmarshal(raw, &m.Datatype); err != nil {
			bad("global.core:datatype", raw, "must be a string")
		} else if m.Datatype != sigMFDatatype {
			bad("global.core:datatype", raw, "only %s (interleaved int8 I/Q) can be read", sigMFDatatype)
		}
	}
	if raw, ok := global["rfhandoff:simulated"]; ok {
		if err := json.Unmarshal(raw, &m.Simulated); err != nil {
			bad("global.rfhandoff:simulated", raw, "must be true or false")
		}
	}
	if raw, ok := global["core:sample_rate"]; ok {
		v, err := hertz(raw, false)
		if err != nil {
			bad("global.core:sample_rate", raw, "%s", err)
		}
		m.SampleRateHz = v
	}

	if raw, ok := top["captures"]; ok && !isNull(raw) {
		var caps []json.RawMessage
		if err := json.Unmarshal(raw, &caps); err != nil {
			bad("captures", raw, "must be an array")
		} else if len(caps) > 0 {
			first, ok := object(caps[0])
			if !ok {
				bad("captures[0]", caps[0], "must be an object")
			}
			if raw, ok := first["core:frequency"]; ok {
				v, err := hertz(raw, true)
				if err != nil {
					bad("captures[0].core:frequency", raw, "%s", err)
				}
				m.FrequencyHz = v
			}
			if raw, ok := first["core:datetime"]; ok {
				var s string
				if err := json.Unmarshal(raw, &s); err != nil {
					bad("captures[0].core:datetime", raw, "must be a string")
				} else if t, err := time.Parse(time.RFC3339Nano, s); err != nil {
					bad("captures[0].core:datetime", raw, "must be an ISO 8601 / RFC 3339 time")
				} else {
					m.Start = t
				}
			}
		}
	}
	if err := errs.ErrorOrNil(); err != nil {
		return SigMFMeta{}, err
	}
	return m, nil
}

// object decodes raw as a JSON object; ok is false for anything else
// (null and absent included).
func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// hertz reads a SigMF frequency (a JSON number, possibly fractional) as
// whole hertz.
func hertz(raw json.RawMessage, zeroOK bool) (int64, error) {
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("must be a number")
	}
	switch {
	case math.IsNaN(v) || v < 0 || (v == 0 && !zeroOK):
		if zeroOK {
			return 0, fmt.Errorf("must not be negative")
		}
		return 0, fmt.Errorf("must be positive")
	case v > maxSigMFHz:
		return 0, fmt.Errorf("must be at most %g Hz", maxSigMFHz)
	}
	hz := int64(math.Round(v))
	if hz == 0 && !zeroOK {
		return 0, fmt.Errorf("must be at least 1 Hz")
	}
	return hz, nil
}

func shorten(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
