package capture

import (
	"sync"
	"sync/atomic"
	"time"

	"rfhandoff/hackrfcli"
)

// firstSample estimates when the capture's first sample was taken, for
// SigMF's core:datetime. The process start is too early: hackrf_transfer
// opens the board, tunes and starts streaming first. Each look at the file
// bounds the time from above: the size bytes on disk at t were all sampled
// by t, at two bytes per sample, so the first sample was taken no later
// than t − size/(2·rate). The smallest bound seen is kept (a look right
// after the tool wrote a USB block is within a block's duration of the
// truth), and never before the process started (a tool writing faster than
// real time, as HACKRF_SIM=fast does, would put it there).
type firstSample struct {
	mu        sync.Mutex
	rate      float64   // samples per second
	notBefore time.Time // the process start
	best      time.Time // zero until the file held a byte
}

func newFirstSample(rateHz int64, processStart time.Time) *firstSample {
	return &firstSample{rate: float64(rateHz), notBefore: processStart}
}

// observe folds in one look at the file: size bytes at t.
func (f *firstSample) observe(t time.Time, size int64) {
	if f == nil || size <= 0 || !(f.rate > 0) {
		return
	}
	bound := t.Add(-time.Duration(float64(size) / 2 / f.rate * float64(time.Second)))
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.best.IsZero() || bound.Before(f.best) {
		f.best = bound
	}
}

// at is the estimate: the process start until a byte was seen.
func (f *firstSample) at() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.best.IsZero() || f.best.Before(f.notBefore) {
		return f.notBefore
	}
	return f.best
}

// seen reports whether the file held a byte at a look.
func (f *firstSample) seen() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.best.IsZero()
}

// startLine is when hackrf_transfer said "Stop with Ctrl-C", which it
// prints once hackrf_start_rx has returned: the board was armed (-H) or
// streaming by then. The line's arrival is a little later than that, so
// counting from it errs towards "too soon after arming" (align.go).
type startLine struct {
	at atomic.Pointer[time.Time] // nil until the line came
}

// onLine is StartReceive's line hook: it keeps the first start line's time.
func (l *startLine) onLine(ev hackrfcli.TransferEvent) {
	if ev.Kind == hackrfcli.EventStartHint {
		l.at.CompareAndSwap(nil, new(time.Now()))
	}
}

// seen is the line's time, or zero when it has not come.
func (l *startLine) seen() time.Time { return deref(l.at.Load(), time.Time{}) }
