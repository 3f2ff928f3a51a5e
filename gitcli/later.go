package gitcli

// later runs fn in its own goroutine and returns the wait for its answer
// (callable any number of times). The caller waits on every path, so the
// call never outlives it.
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
