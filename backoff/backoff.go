package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff is exponential from Base, capped at Max, with "equal jitter"
// (half the step fixed, half random) so that retries never collapse to
// zero and two watchers that failed together do not retry in step.
type Backoff struct {
	Base, Max time.Duration
	Rand      func() float64 // in [0, 1); nil means math/rand/v2
	failures  int
}

// Next counts one more failure and returns a random wait in [step/2,
// step], step = Base·2^(failures-1) capped at Max.
func (b *Backoff) Next() time.Duration {
	b.failures++
	step := b.Base
	for i := 1; i < b.failures && step < b.Max; i++ {
		step *= 2
	}
	if step > b.Max {
		step = b.Max
	}
	if step <= 0 {
		return 0
	}
	r := rand.Float64
	if b.Rand != nil {
		r = b.Rand
	}
	half := step / 2
	return half + time.Duration(r()*float64(step-half))
}

func (b *Backoff) Reset() { b.failures = 0 }

// Sleep waits d or until ctx ends; it reports whether d passed.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
