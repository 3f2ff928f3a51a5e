package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"rfhandoff/alignment"
	"rfhandoff/hacksim"
	"rfhandoff/result"
)

// proofWindow is how much of each recording around the burst's expected
// start the proof reads on each side, beyond the lag it searches: the
// first node's time is off by at most its bound (milliseconds), and the
// detector needs noise before the burst.
const proofWindow = 100 * time.Millisecond

// proofSearchMargin widens the correlation's search range, so a peak at
// the bound's edge is found.
const proofSearchMargin = time.Millisecond

// nodeRecording is what the proof reads of one node.
type nodeRecording struct {
	node  *rxNode
	align *result.Alignment
	data  string
	rate  int64
}

// prove is the scheduled demo's proof by the signal: the lag of each
// node's burst behind the first node's, measured by cross-correlation,
// must match the lag the first-sample times and the true distances
// predict, within the two nodes' reported bounds.
func (d *runner) prove(ctx context.Context, n int) error {
	d.step(n, "Proof by the signal: the nodes' recordings of the one burst")
	d.say("Each node's COMPLETE says which edge started it (PPS), the bound of its first sample's time,")
	d.say("and whether it is aligned. The demo reads each recording around the burst and cross-correlates it")
	d.say("with the first node's: the measured lag must equal the predicted one (first_sample_at of the two")
	d.say("nodes plus their true distance difference) within the sum of the two nodes' bounds.")
	var recs []nodeRecording
	for _, node := range d.sb.nodes {
		rec, err := d.recordingOf(ctx, node)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
	}
	var probs []string
	ref := recs[0]
	for i, rec := range recs {
		a := rec.align
		edge := "none" // HOST_CLOCK, or no edge found
		if a.EdgeAt != nil {
			edge = a.EdgeAt.UTC().Format(time.RFC3339)
		}
		line := fmt.Sprintf("  %s: edge %s, bound %s s, aligned %v", rec.node.Side, edge, result.FormatSeconds(a.Bound), a.Aligned)
		if !a.Aligned {
			probs = append(probs, fmt.Sprintf("%s is not aligned: %s", rec.node.Side, strings.Join(a.Reasons, "; ")))
		}
		if i == 0 {
			d.say("%s; the reference (its lag is 0 by definition)", line)
			continue
		}
		chk, lag, err := measureAgainst(ref, rec, d.air)
		if err != nil {
			d.say("%s; no lag measured: %v", line, err)
			probs = append(probs, fmt.Sprintf("%s: %v", rec.node.Side, err))
			continue
		}
		period := 1 / float64(rec.rate)
		d.say("%s; predicted lag %+.1f ns, measured lag %+.1f ns (correlation %.2f): error %+.3f sample periods, allowed ±%.3f (the two bounds)",
			line, chk.ExpectedS*1e9, chk.MeasuredS*1e9, lag.Peak, chk.ErrorS/period, chk.BoundS/period)
		if !chk.OK {
			probs = append(probs, fmt.Sprintf("%s: %s", rec.node.Side, chk))
		}
	}
	for _, rec := range recs {
		for _, r := range rec.align.Reasons {
			d.say("  %s not aligned because: %s", rec.node.Side, r)
		}
	}
	if len(probs) > 0 {
		return fmt.Errorf("the recordings do not prove the alignment: %s", strings.Join(probs, "; "))
	}
	if len(recs) == 1 {
		d.say("One node: nothing to correlate its recording with; its alignment is its COMPLETE's.")
		return nil
	}
	d.say("Every node is aligned and every measured lag matches its prediction within the reported bounds.")
	return nil
}

func (d *runner) recordingOf(ctx context.Context, node *rxNode) (nodeRecording, error) {
	rec := nodeRecording{node: node}
	r, commit, err := d.remoteResult(ctx, node)
	if err != nil {
		return rec, err
	}
	if r == nil || r.State != result.StateComplete || r.Alignment == nil {
		return rec, fmt.Errorf("the result on %s at commit %s is not a COMPLETE with alignment", node.Branch, short(commit))
	}
	rec.align = r.Alignment
	h, err := d.sb.heard(node)
	rec.rate, rec.data = h.rate, strings.TrimSuffix(h.meta, ".sigmf-meta")+".sigmf-data"
	return rec, err
}

// measureAgainst measures how much later the burst lies in b's recording
// than in a's and compares it with the prediction. Only the stretch
// around the burst is read, at the same sample indices of both.
func measureAgainst(a, b nodeRecording, air hacksim.OnAir) (alignment.Check, alignment.Lag, error) {
	if a.rate != b.rate || a.rate <= 0 {
		return alignment.Check{}, alignment.Lag{}, fmt.Errorf("sample rates %d and %d Sa/s differ or are not positive", a.rate, b.rate)
	}
	rate := float64(a.rate)
	delayDiff := float64(b.node.DelayNS-a.node.DelayNS) / 1e9
	pred := alignment.Predicted(a.align.FirstSampleAt, b.align.FirstSampleAt, delayDiff)
	bound := (a.align.Bound + b.align.Bound).Seconds()
	maxLag := math.Abs(pred) + bound + proofSearchMargin.Seconds()
	// The burst reached a at air.Start + a's delay, true time; a's sample
	// at that time is its index by a's own first-sample time.
	at := air.Start.Add(time.Duration(a.node.DelayNS)).Sub(a.align.FirstSampleAt).Seconds() * rate
	w := (maxLag + proofWindow.Seconds()) * rate
	from, to := int64(max(0, at-w)), int64(at+w)
	if to <= from {
		return alignment.Check{}, alignment.Lag{}, fmt.Errorf("the burst (on the air at %s) is not inside %s's recording", air.Start.Format(time.RFC3339Nano), a.node.Side)
	}
	ra, err := readSamples(a.data, from, to)
	if err != nil {
		return alignment.Check{}, alignment.Lag{}, err
	}
	rb, err := readSamples(b.data, from, to)
	if err != nil {
		return alignment.Check{}, alignment.Lag{}, err
	}
	lag, err := alignment.MeasureCI8(ra, rb, rate, maxLag)
	if err != nil {
		return alignment.Check{}, lag, err
	}
	return alignment.Compare(lag.Seconds, pred, bound), lag, nil
}

// readSamples reads ci8 samples [from, to) of a recording, fewer where it
// ends sooner.
func readSamples(path string, from, to int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 2*(to-from))
	n, err := f.ReadAt(buf, 2*from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf[:n&^1], nil
}
