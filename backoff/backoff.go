package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff is exponential from Base, capped at Max, with "equal jitter"
// (half the step fixed, half random) so that retries never collapse to
// zero and two watchers that failed together do not retry in step.
// The zero value of the failure count is ready to use.
type Backoff struct {
	Base, Max time.Duration
	// Rand returns a number in [0, 1); nil means math/rand/v2.
	Rand func() float64

	failures int
}

// Next counts one more failure and returns how long to wait before the
// next poll: a random duration in [step/2, step], step = Base·2^(failures-1)
// capped at Max.
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

// Reset forgets the failures after a successful poll.
func (b *Backoff) Reset() { b.failures = 0 }

// Failures is the number of failures since the last Reset.
func (b *Backoff) Failures() int { return b.failures }

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
