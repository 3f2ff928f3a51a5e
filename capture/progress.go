package capture

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// progress shows a running capture: on a terminal one line rewritten in
// place, elsewhere a plain line per interval, so logs stay readable.
type progress struct {
	w        io.Writer // nil: no display
	terminal bool
	every    time.Duration // plain-line interval
	taskID   string
	planned  time.Duration
	total    int64 // bytes of a complete capture

	lastShown time.Time
	lastBytes int64
	lastAt    time.Time
	rate      float64 // bytes per second over the last interval
	drawn     bool    // a terminal line is on screen
}

type sample struct {
	at       time.Time
	elapsed  time.Duration
	bytes    int64
	power    float64
	hasPower bool
}

func (p *progress) update(s sample) {
	if p.w == nil {
		return
	}
	if dt := s.at.Sub(p.lastAt).Seconds(); p.lastAt.IsZero() || dt > 0.2 {
		if !p.lastAt.IsZero() {
			p.rate = float64(s.bytes-p.lastBytes) / dt
		}
		p.lastBytes, p.lastAt = s.bytes, s.at
	}
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s\x1b[K", p.line(s, true))
		p.drawn = true
		return
	}
	if p.lastShown.IsZero() || s.at.Sub(p.lastShown) >= p.every {
		p.lastShown = s.at
		fmt.Fprintln(p.w, p.line(s, false))
	}
}

// clear ends the terminal line so other output starts on its own.
func (p *progress) clear() {
	if p.w != nil && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// done leaves the last state on screen and moves to a new line.
func (p *progress) done(s sample) {
	if p.w == nil {
		return
	}
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s\x1b[K\n", p.line(s, true))
		p.drawn = false
		return
	}
	fmt.Fprintln(p.w, p.line(s, false))
}

func (p *progress) line(s sample, bar bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "capture %s: %s / %s", p.taskID, fmtDur(s.elapsed), fmtDur(p.planned))
	if bar {
		frac := 0.0
		if p.total > 0 {
			frac = math.Min(1, float64(s.bytes)/float64(p.total))
		}
		const width = 20
		full := int(frac * width)
		fmt.Fprintf(&b, " [%s%s] %3.0f%%", strings.Repeat("#", full), strings.Repeat(".", width-full), 100*frac)
	}
	fmt.Fprintf(&b, ", %s, %s/s", fmtBytes(float64(s.bytes)), fmtBytes(p.rate))
	if s.hasPower && !math.IsNaN(s.power) && !math.IsInf(s.power, 0) {
		fmt.Fprintf(&b, ", %.1f dBFS", s.power)
	}
	return b.String()
}

func fmtDur(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// fmtBytes writes decimal units, as hackrf_transfer counts.
func fmtBytes(n float64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", n/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", n/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", n/1e3)
	}
	return fmt.Sprintf("%.0f B", n)
}
