package gitcli

// later runs fn at once in its own goroutine and returns the wait for its
// answer, so that a local git call runs beside what the caller does
// meanwhile. The wait may be called any number of times; the caller calls
// it on every path, so the call never outlives it.
func later[T any](fn func() (T, error)) (wait func() (T, error)) {
	done := make(chan struct{})
	var v T
	var err error
	go func() {
		defer close(done)
		v, err = fn()
	}()
	return func() (T, error) {
		<-done
		return v, err
	}
}
