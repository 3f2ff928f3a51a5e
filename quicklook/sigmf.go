package quicklook

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"
)

const (
	sigMFMetaExt  = ".sigmf-meta"
	sigMFDatatype = "ci8" // the only datatype this package reads

	MaxSigMFMetaBytes = 1 << 20 // bounds the metadata read beside a capture
	maxSigMFHz        = 1e12
)

// SigMFMeta is what the quick-look needs from SigMF metadata.
type SigMFMeta struct {
	Datatype     string    // global.core:datatype
	SampleRateHz int64     // global.core:sample_rate
	FrequencyHz  int64     // captures[0].core:frequency
	Start        time.Time // captures[0].core:datetime
	Simulated    bool      // global.rfhandoff:simulated (PROTOCOL#simulator)
}

// SigMFMetaPaths are the metadata files that may describe file, in order.
func SigMFMetaPaths(file string) []string {
	base := strings.TrimSuffix(file, filepath.Ext(file))
	paths := []string{base + sigMFMetaExt}
	if own := file + sigMFMetaExt; own != paths[0] {
		paths = append(paths, own)
	}
	return paths
}

// ParseSigMFMeta reads the fields the quick-look uses, reporting every
// invalid one at once; a datatype other than ci8 is an error.
func ParseSigMFMeta(data []byte) (SigMFMeta, error) {
	var m SigMFMeta
	var top map[string]json.RawMessage
	err := json.Unmarshal(data, &top)
	if err == nil && top == nil {
		err = errors.New("not a JSON object")
	}
	if err != nil {
		return m, fmt.Errorf("(file): not SigMF metadata: %s", err)
	}
	var errs *multierror.Error
	bad := func(field string, raw json.RawMessage, problem string) {
		s := strings.TrimSpace(string(raw))
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		errs = multierror.Append(errs, fmt.Errorf("%s = %s: %s", field, s, problem))
	}
	// read decodes obj[key] when present; ok says v holds it.
	read := func(obj map[string]json.RawMessage, field, key string, v any, problem string) (raw json.RawMessage, ok bool) {
		if raw, ok = obj[key]; ok && json.Unmarshal(raw, v) != nil {
			bad(field+key, raw, problem)
			return raw, false
		}
		return raw, ok
	}
	hertz := func(obj map[string]json.RawMessage, field, key string, zeroOK bool) int64 {
		var v float64
		raw, ok := read(obj, field, key, &v, "must be a number")
		problem := ""
		switch {
		case !ok:
			return 0
		case zeroOK && (math.IsNaN(v) || v < 0):
			problem = "must not be negative"
		case !zeroOK && (math.IsNaN(v) || v <= 0):
			problem = "must be positive"
		case v > maxSigMFHz:
			problem = fmt.Sprintf("must be at most %g Hz", maxSigMFHz)
		case !zeroOK && math.Round(v) == 0:
			problem = "must be at least 1 Hz"
		default:
			return int64(math.Round(v))
		}
		bad(field+key, raw, problem)
		return 0
	}

	var global map[string]json.RawMessage // null, unlike absent, is an error
	if raw, ok := read(top, "", "global", &global, "must be an object"); ok && global == nil {
		bad("global", raw, "must be an object")
	}
	if raw, ok := read(global, "global.", "core:datatype", &m.Datatype, "must be a string"); ok && m.Datatype != sigMFDatatype {
		bad("global.core:datatype", raw, "only "+sigMFDatatype+" (interleaved int8 I/Q) can be read")
	}
	read(global, "global.", "rfhandoff:simulated", &m.Simulated, "must be true or false")
	m.SampleRateHz = hertz(global, "global.", "core:sample_rate", false)

	var caps []json.RawMessage // null reads as none
	if _, ok := read(top, "", "captures", &caps, "must be an array"); ok && len(caps) > 0 {
		var first map[string]json.RawMessage
		if json.Unmarshal(caps[0], &first) != nil || first == nil {
			bad("captures[0]", caps[0], "must be an object")
		}
		m.FrequencyHz = hertz(first, "captures[0].", "core:frequency", true)
		var s string
		if raw, ok := read(first, "captures[0].", "core:datetime", &s, "must be a string"); ok {
			var err error // a zero Start on error: m is then not returned
			if m.Start, err = time.Parse(time.RFC3339Nano, s); err != nil {
				bad("captures[0].core:datetime", raw, "must be an ISO 8601 / RFC 3339 time")
			}
		}
	}
	if err := errs.ErrorOrNil(); err != nil {
		return SigMFMeta{}, err
	}
	return m, nil
}
