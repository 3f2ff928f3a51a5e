package hacksim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// OnAirEnv names the on-air coupling of the demo sandbox,
// "<delay_ms>:<level_db>:<path>" (doc.go, PROTOCOL#simulator).
const OnAirEnv = "HACKRF_SIM_ONAIR"

// OnAir is the on-air file: one transmission the sandbox put on the air.
type OnAir struct {
	// Start is when the transmission began.
	Start time.Time `json:"start"`
	// DurationS is how long it lasted, in seconds.
	DurationS float64 `json:"duration_s"`
	// FrequencyHz is its centre frequency; the tone sits burstOffsetHz
	// above it, and a receiver hears it only inside its own band.
	FrequencyHz int64 `json:"frequency_hz"`
}

// onAirListener is a receiver's HACKRF_SIM_ONAIR.
type onAirListener struct {
	path    string
	delay   time.Duration
	levelDB float64
}

// maxOnAirBytes bounds the on-air file: it is a few fields.
const maxOnAirBytes = 4096

func parseOnAirEnv(s string) (*onAirListener, error) {
	if s == "" {
		return nil, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("%s=%q: %s (want <delay_ms>:<level_db>:<path>, e.g. 250:-6:/tmp/on-air.json)", OnAirEnv, s, why)
	}
	parts := strings.SplitN(s, ":", 3)
	if len(parts) != 3 {
		return nil, bad("three fields separated by ':' are needed")
	}
	var probs []string
	ms, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || ms < 0 || ms > 60_000 {
		probs = append(probs, fmt.Sprintf("delay_ms %q is not a whole number of milliseconds from 0 to 60000", parts[0]))
	}
	db, err := strconv.ParseFloat(parts[1], 64)
	if err != nil || math.IsNaN(db) || db > 0 || db < -60 {
		probs = append(probs, fmt.Sprintf("level_db %q is not a number from -60 to 0", parts[1]))
	}
	if parts[2] == "" {
		probs = append(probs, "the path is empty")
	}
	if len(probs) > 0 {
		return nil, bad(strings.Join(probs, "; "))
	}
	return &onAirListener{path: parts[2], delay: time.Duration(ms) * time.Millisecond, levelDB: db}, nil
}

// errNotOnAir: the on-air file does not exist (yet).
var errNotOnAir = errors.New("nothing on the air yet")

// readOnAir reads and checks the on-air file.
func readOnAir(path string) (OnAir, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return OnAir{}, errNotOnAir
	}
	if err != nil {
		return OnAir{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOnAirBytes+1))
	if err != nil {
		return OnAir{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxOnAirBytes {
		return OnAir{}, fmt.Errorf("%s: larger than %d bytes", path, maxOnAirBytes)
	}
	var a OnAir
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return OnAir{}, fmt.Errorf("%s: %w", path, err)
	}
	var probs []string
	if a.Start.IsZero() {
		probs = append(probs, "start is missing")
	}
	if !(a.DurationS > 0 && a.DurationS <= 3600) {
		probs = append(probs, fmt.Sprintf("duration_s %v is not in (0, 3600]", a.DurationS))
	}
	if a.FrequencyHz <= 0 {
		probs = append(probs, fmt.Sprintf("frequency_hz %d is not positive", a.FrequencyHz))
	}
	if len(probs) > 0 {
		return OnAir{}, fmt.Errorf("%s: %s", path, strings.Join(probs, "; "))
	}
	return a, nil
}

// WriteOnAir writes the on-air file (a new name renamed over path, so a
// simulator never reads half of it).
func WriteOnAir(path string, a OnAir) error {
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// onAirWindow is the sample window [from, to) during which a, arriving
// delay later, is heard by a stream whose sample k is taken at
// streamStart + k/rate; ok is false when no sample falls into it.
func onAirWindow(a OnAir, delay time.Duration, streamStart time.Time, rate uint32) (from, to int64, ok bool) {
	begin := a.Start.Add(delay).Sub(streamStart).Seconds()
	from = int64(math.Ceil(begin * float64(rate)))
	to = from + int64(math.Round(a.DurationS*float64(rate)))
	if to <= 0 {
		return 0, 0, false
	}
	return max(from, 0), to, true
}

// heardOffsetHz is where the tone of a lands relative to a receiver tuned
// to centreHz sampling at rate, and whether it is inside the band.
func heardOffsetHz(a OnAir, centreHz int64, rate uint32) (float64, bool) {
	off := float64(a.FrequencyHz-centreHz) + burstOffsetHz
	return off, math.Abs(off) < float64(rate)/2
}
