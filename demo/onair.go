package demo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"rfhandoff/hacksim"
	"rfhandoff/quicklook"
)

// onAirLead is how long after the fake action the stand-in transmission
// begins: a real hackrf_transfer -t needs about as long to tune, and no
// simulator can have streamed past a start in the future before it read
// the on-air file.
const onAirLead = 200 * time.Millisecond

// onAirEnv is HACKRF_SIM_ONAIR for node n.
func (sb *Sandbox) onAirEnv(n *rxNode) string {
	return hacksim.OnAirEnv + "=" + strconv.Itoa(n.DelayMS) + ":" + strconv.FormatFloat(n.LevelDB, 'f', -1, 64) + ":" + sb.OnAir
}

// putOnAir writes the on-air file once tx execute has run the fake action:
// the transmission a real action would have made. The fake action stays
// exactly what every MAIN PC runs; the sandbox, not the executor, plays
// the air.
func (d *runner) putOnAir() (hacksim.OnAir, error) {
	pol := d.sb.mainPol
	a := hacksim.OnAir{Start: time.Now().Add(onAirLead + d.sb.maxBehind()).UTC(), DurationS: float64(pol.TX.DurationS), FrequencyHz: pol.TX.FrequencyHz}
	if err := hacksim.WriteOnAir(d.sb.OnAir, a); err != nil {
		return a, fmt.Errorf("writing the on-air file: %w", err)
	}
	d.say("The sandbox puts the stand-in transmission on the air (%s): %d s at %.3f MHz from %s;",
		d.sb.OnAir, pol.TX.DurationS, float64(pol.TX.FrequencyHz)/1e6, a.Start.Local().Format("15:04:05.000"))
	for _, n := range d.sb.nodes {
		if d.sb.Sync != "" {
			d.say("  %s's simulator hears its chirp %d ns later at %+.0f dB (HACKRF_SIM_ONAIR, HACKRF_SIM_DELAY_NS).", n.Side, n.DelayNS, n.LevelDB)
			continue
		}
		d.say("  %s's simulator hears it %+d ms later at %+.0f dB (HACKRF_SIM_ONAIR).", n.Side, n.DelayMS, n.LevelDB)
	}
	return a, nil
}

// heardBurst is what a node's SigMF metadata says it heard.
type heardBurst struct {
	meta        string
	firstSample time.Time // captures[0].core:datetime
	rate        int64
	found       bool
	start, end  int64 // the burst annotation's samples [start, end)
	comment     string
}

// heard reads node n's .sigmf-meta: its first sample's time and the
// energy detector's burst annotation.
func (sb *Sandbox) heard(n *rxNode) (heardBurst, error) {
	h := heardBurst{meta: filepath.Join(n.pol.CaptureDir(), taskID, n.recording()+".sigmf-meta")}
	data, err := os.ReadFile(h.meta)
	if err != nil {
		return h, err
	}
	m, err := quicklook.ParseSigMFMeta(data)
	if err != nil {
		return h, fmt.Errorf("%s: %w", h.meta, err)
	}
	h.firstSample, h.rate = m.Start, m.SampleRateHz
	var doc struct {
		Annotations []struct {
			Start   int64  `json:"core:sample_start"`
			Count   int64  `json:"core:sample_count"`
			Label   string `json:"core:label"`
			Comment string `json:"core:comment"`
		} `json:"annotations"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return h, fmt.Errorf("%s: %w", h.meta, err)
	}
	for _, a := range doc.Annotations {
		if a.Label == "burst" {
			h.found, h.start, h.end, h.comment = true, a.Start, a.Start+a.Count, a.Comment
			break
		}
	}
	return h, nil
}

func (d *runner) showHeard(air hacksim.OnAir) {
	d.say("What each node heard (its quick-look PNG and SigMF annotation, beside its capture):")
	for _, n := range d.sb.nodes {
		h, err := d.sb.heard(n)
		switch {
		case err != nil:
			d.say("  %s: cannot read its SigMF metadata: %v", n.Side, err)
		case !h.found:
			d.say("  %s: no burst annotated in %s", n.Side, h.meta)
		default:
			at := h.firstSample // when the burst began, by the recording's own clock
			if h.rate > 0 {
				at = at.Add(time.Duration(float64(h.start) / float64(h.rate) * float64(time.Second)))
			}
			d.say("  %s heard the burst: samples %d to %d, %+d ms after the on-air start by its own clock (configured %+d ms, %+.0f dB); %s",
				n.Side, h.start, h.end, at.Sub(air.Start).Milliseconds(), n.DelayMS, n.LevelDB, h.comment)
		}
	}
}
