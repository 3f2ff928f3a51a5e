package capture

import (
	"sync"
	"sync/atomic"
	"time"

	"rfhandoff/hackrfcli"
)

// firstSample estimates when the capture's first sample was taken (SigMF
// core:datetime); the process start is too early (the tool opens, tunes
// and starts streaming first). size bytes on disk at t were all sampled by
// t, so the first sample came no later than t − size/(2·rate). The
// smallest bound seen is kept (a look right after a USB block is within a
// block's duration of the truth), never before the process started (a
// tool faster than real time, as HACKRF_SIM=fast, would put it there).
type firstSample struct {
	mu        sync.Mutex
	rate      float64   // samples per second
	notBefore time.Time // the process start
	best      time.Time // zero until the file held a byte
}

func newFirstSample(rateHz int64, processStart time.Time) *firstSample {
	return &firstSample{rate: float64(rateHz), notBefore: processStart}
}

// observe folds in size bytes seen at t.
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

// startLine is when hackrf_transfer said "Stop with Ctrl-C", printed once
// hackrf_start_rx has returned (the board armed or streaming). The line
// arrives a little later, so counting from it errs towards "too soon
// after arming" (align.go).
type startLine struct {
	at atomic.Pointer[time.Time] // nil until the line came
}

// onLine is StartReceive's line hook.
func (l *startLine) onLine(ev hackrfcli.TransferEvent) {
	if ev.Kind == hackrfcli.EventStartHint {
		l.at.CompareAndSwap(nil, new(time.Now()))
	}
}

// seen is the line's time, or zero when it has not come.
func (l *startLine) seen() time.Time { return deref(l.at.Load(), time.Time{}) }
