package gittest

import (
	"context"
	"sync"

	"rfhandoff/exec"
)

// Recorder is a Runner that keeps every command it passes on, so a test
// can count and inspect the git processes code starts.
type Recorder struct {
	exec.Runner
	mu   sync.Mutex
	runs []exec.Cmd
}

func (r *Recorder) Run(ctx context.Context, c exec.Cmd) (exec.Result, error) {
	r.mu.Lock()
	r.runs = append(r.runs, c)
	r.mu.Unlock()
	return r.Runner.Run(ctx, c)
}

// Take returns the argv recorded since the last Take and forgets them.
func (r *Recorder) Take() [][]string {
	var out [][]string
	for _, c := range r.TakeCmds() {
		out = append(out, c.Args)
	}
	return out
}

// TakeCmds is Take with the whole commands (their Env too).
func (r *Recorder) TakeCmds() []exec.Cmd {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.runs
	r.runs = nil
	return out
}
