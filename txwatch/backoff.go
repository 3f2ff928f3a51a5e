package txwatch

import (
	"math/rand/v2"
	"time"
)

// backoff is exponential backoff with jitter, capped at max: after n
// consecutive failures the wait is a random duration in [d/2, d] with
// d = min(max, base·2^(n-1)), so watchers that failed together do not
// retry in step.
type backoff struct {
	base, max time.Duration
	n         int
	rand      func() float64 // [0, 1); nil means math/rand/v2
}

func (b *backoff) next() time.Duration {
	b.n++
	d := b.base
	for i := 1; i < b.n && d < b.max; i++ {
		d *= 2
	}
	if d > b.max {
		d = b.max
	}
	r := rand.Float64
	if b.rand != nil {
		r = b.rand
	}
	return d/2 + time.Duration(r()*float64(d/2))
}

func (b *backoff) reset() { b.n = 0 }

// sleep waits d or until ctx ends; it reports whether the wait completed.
func sleep(ctx interface{ Done() <-chan struct{} }, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
