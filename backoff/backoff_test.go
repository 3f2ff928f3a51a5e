package backoff

import (
	"context"
	"slices"
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	const base, max = 200 * time.Millisecond, 1 * time.Second
	tests := []struct {
		name string
		rand float64
		want []time.Duration // after 1, 2, 3, ... failures
	}{
		// Equal jitter: between half the step and the step.
		{"low jitter", 0, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond}},
		{"high jitter", 0.999999, []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, max, max}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Backoff{Base: base, Max: max, Rand: func() float64 { return tt.rand }}
			for i, want := range tt.want {
				got := b.Next()
				if d := got - want; d < -time.Millisecond || d > time.Millisecond {
					t.Errorf("failure %d: %v, want %v", i+1, got, want)
				}
			}
			if b.failures != len(tt.want) {
				t.Errorf("Failures = %d", b.failures)
			}
			b.Reset()
			if got := b.Next(); got > base || got < base/2 {
				t.Errorf("after Reset: %v, want the first step again", got)
			}
		})
	}
}

// Whatever the jitter, the waits stay within [step/2, step], never shrink
// from one failure to the next, and start over after a Reset.
func TestBackoffGrowsWithJitterUpToMax(t *testing.T) {
	for _, r := range []float64{0, 0.5, 0.999} {
		b := Backoff{Base: 100 * time.Millisecond, Max: time.Second, Rand: func() float64 { return r }}
		var got []time.Duration
		for range 6 {
			got = append(got, b.Next())
		}
		full := []time.Duration{100, 200, 400, 800, 1000, 1000}
		for i, d := range got {
			hi := full[i] * time.Millisecond
			if d < hi/2 || d > hi {
				t.Fatalf("rand %v: wait %d = %v, want within [%v, %v]; all %v", r, i, d, hi/2, hi, got)
			}
		}
		if !slices.IsSorted(got) {
			t.Errorf("rand %v: waits shrink: %v", r, got)
		}
		b.Reset()
		if d := b.Next(); d > 100*time.Millisecond {
			t.Errorf("after reset: %v", d)
		}
	}
}

// With the real random source every delay stays inside its bounds, even
// after many failures (no overflow past Max).
func TestBackoffBounds(t *testing.T) {
	b := Backoff{Base: time.Second, Max: 5 * time.Minute}
	for i := 1; i <= 200; i++ {
		d := b.Next()
		step := time.Second << min(i-1, 20)
		if step > b.Max {
			step = b.Max
		}
		if d < step/2 || d > step {
			t.Fatalf("failure %d: %v outside [%v, %v]", i, d, step/2, step)
		}
	}
}

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Sleep(ctx, time.Hour) {
		t.Error("Sleep with an ended context reported the full wait")
	}
	if !Sleep(context.Background(), time.Millisecond) {
		t.Error("Sleep of 1ms without cancellation reported an early end")
	}
}
