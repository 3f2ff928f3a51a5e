package hackrfcli

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/ident"
)

// Limits hackrf_transfer supports without -F (which rfhandoff never passes).
const (
	minFrequencyHz  = 1_000_000     // 1 MHz
	maxFrequencyHz  = 6_000_000_000 // 6000 MHz
	minSampleRateHz = 2_000_000
	maxSampleRateHz = 20_000_000
	maxLNAGainDB    = 40 // 8 dB steps
	maxVGAGainDB    = 62 // 2 dB steps
	maxTXVGAGainDB  = 47 // 1 dB steps
)

// RxParams is one bounded receive: hackrf_transfer -r.
type RxParams struct {
	FrequencyHz  int64
	SampleRateHz int64
	LNAGainDB    int
	VGAGainDB    int
	Amp          bool
	NumSamples   int64
	Serial       string // optional: -d, a suffix of the board's serial
	OutPath      string // absolute path of the ci8 capture file
	Trigger      bool   // -H: start on the trigger input's rising edge (PPS)
}

// TxParams is one bounded transmission: hackrf_transfer -t.
type TxParams struct {
	IQPath       string // absolute path of the ci8 file to send
	FrequencyHz  int64
	SampleRateHz int64
	TXVGAGainDB  int
	Amp          bool
	NumSamples   int64
	Serial       string
}

func fieldError(field, value, reason string) error {
	return fmt.Errorf("%s = %s: %s", field, value, reason)
}

// Validate reports every field the tool does not really support, at once;
// the tool itself would silently ignore out-of-range gains.
func (p RxParams) Validate() error {
	v := validator{kind: "RxParams"}
	v.tuning(p.FrequencyHz, p.SampleRateHz)
	v.gain("LNAGainDB", p.LNAGainDB, maxLNAGainDB, 8)
	v.gain("VGAGainDB", p.VGAGainDB, maxVGAGainDB, 2)
	v.numSamples(p.NumSamples)
	v.serial(p.Serial)
	v.path("OutPath", p.OutPath)
	return v.err.ErrorOrNil()
}

// Validate is RxParams.Validate for a transmission.
func (p TxParams) Validate() error {
	v := validator{kind: "TxParams"}
	v.path("IQPath", p.IQPath)
	v.tuning(p.FrequencyHz, p.SampleRateHz)
	v.gain("TXVGAGainDB", p.TXVGAGainDB, maxTXVGAGainDB, 1)
	v.numSamples(p.NumSamples)
	v.serial(p.Serial)
	return v.err.ErrorOrNil()
}

func (p RxParams) argv() []string {
	args := []string{
		"-r", p.OutPath,
		"-f", itoa(p.FrequencyHz),
		"-s", itoa(p.SampleRateHz),
		"-l", strconv.Itoa(p.LNAGainDB),
		"-g", strconv.Itoa(p.VGAGainDB),
		"-a", boolArg(p.Amp),
		"-n", itoa(p.NumSamples),
		"-B",
	}
	if p.Serial != "" {
		args = append(args, "-d", p.Serial)
	}
	if p.Trigger {
		args = append(args, "-H")
	}
	return args
}

// Argv is the hackrf_transfer arguments for a valid TxParams.
func (p TxParams) Argv() []string {
	args := []string{
		"-t", p.IQPath,
		"-f", itoa(p.FrequencyHz),
		"-s", itoa(p.SampleRateHz),
		"-x", strconv.Itoa(p.TXVGAGainDB),
		"-a", boolArg(p.Amp),
		"-n", itoa(p.NumSamples),
	}
	if p.Serial != "" {
		args = append(args, "-d", p.Serial)
	}
	return args
}

func (p TxParams) duration() time.Duration {
	if p.SampleRateHz <= 0 || p.NumSamples <= 0 {
		return 0
	}
	return time.Duration(float64(p.NumSamples) / float64(p.SampleRateHz) * float64(time.Second))
}

// Bytes is the size of the finished capture file.
func (p RxParams) Bytes() int64 { return 2 * p.NumSamples }

type validator struct {
	kind string
	err  *multierror.Error
}

func (v *validator) bad(field, value, reason string) {
	v.err = multierror.Append(v.err, fieldError(v.kind+"."+field, value, reason))
}

func (v *validator) tuning(freq, rate int64) {
	if freq < minFrequencyHz || freq > maxFrequencyHz {
		v.bad("FrequencyHz", itoa(freq), "must be 1000000–6000000000 Hz (hackrf_transfer's supported range)")
	}
	if rate < minSampleRateHz || rate > maxSampleRateHz {
		v.bad("SampleRateHz", itoa(rate), "must be 2000000–20000000 Hz")
	}
}

func (v *validator) gain(field string, db, max, step int) {
	if db < 0 || db > max || db%step != 0 {
		reason := fmt.Sprintf("must be 0–%d dB in steps of %d", max, step)
		if step == 1 {
			reason = fmt.Sprintf("must be 0–%d dB", max)
		}
		v.bad(field, strconv.Itoa(db), reason)
	}
}

func (v *validator) numSamples(n int64) {
	if n <= 0 {
		v.bad("NumSamples", itoa(n), "must be greater than 0 (the capture must be bounded)")
	}
}

func (v *validator) serial(s string) {
	if s != "" && !ident.Serial.MatchString(s) {
		v.bad("Serial", strconv.Quote(s), "must be 1–32 lowercase hex digits (a suffix of the board's serial)")
	}
}

func (v *validator) path(field, p string) {
	switch {
	case p == "":
		v.bad(field, `""`, "is required")
	case strings.HasPrefix(p, "-"):
		v.bad(field, strconv.Quote(p), "must not start with '-' (it would read as an option or as stdin/stdout)")
	case !filepath.IsAbs(p):
		v.bad(field, strconv.Quote(p), "must be an absolute path")
	case strings.ContainsRune(p, 0):
		v.bad(field, strconv.Quote(p), "must not contain NUL")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func boolArg(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
