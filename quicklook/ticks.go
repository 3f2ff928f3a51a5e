package quicklook

import "math"

// niceStep is the 1-2-5 step that splits span into about n intervals.
func niceStep(span float64, n int) float64 {
	if !(span > 0) || n < 1 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// ticks returns the multiples of step within [lo, hi].
func ticks(lo, hi, step float64) []float64 {
	var out []float64
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+step*1e-9; i++ {
		out = append(out, i*step+0) // +0 turns -0 into 0
	}
	return out
}

// decimals is how many decimals show a multiple of step exactly.
func decimals(step float64) int {
	for d := 0; d < 9; d++ {
		if s := step * math.Pow(10, float64(d)); math.Abs(s-math.Round(s)) < 1e-6 {
			return d
		}
	}
	return 9
}
