package txwatch

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"rfhandoff/gitcli"
)

// reporter writes one event per line and says each distinct error once,
// not every poll.
type reporter struct {
	mu      sync.Mutex
	out     io.Writer
	prefix  string
	lastErr string
	failing bool
	notes   map[string]bool
}

func newReporter(out io.Writer, prefix string) *reporter {
	return &reporter{out: cmp.Or(out, io.Discard), prefix: prefix, notes: map[string]bool{}}
}

func (r *reporter) printf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg := fmt.Sprintf(format, args...)
	msg = strings.ReplaceAll(strings.TrimRight(msg, "\n"), "\n", "\n  ")
	fmt.Fprintf(r.out, "%s%s\n", r.prefix, msg)
}

// failure reports err unless it is the same as the last one reported.
func (r *reporter) failure(err error) {
	msg := err.Error()
	var fp *gitcli.ForcePushError
	if errors.As(err, &fp) {
		msg += "\nnothing is authorized from a rewritten branch: a person must check it (the watcher keeps retrying)"
	}
	r.mu.Lock()
	same := r.failing && msg == r.lastErr
	r.failing, r.lastErr = true, msg
	r.mu.Unlock()
	if !same {
		r.printf("error (will retry with backoff): %s", msg)
	}
}

// ok ends a run of failures with a recovery message.
func (r *reporter) ok() {
	r.mu.Lock()
	was := r.failing
	r.failing, r.lastErr = false, ""
	r.mu.Unlock()
	if was {
		r.printf("recovered: polling the result branch again")
	}
}

func (r *reporter) once(key, format string, args ...any) {
	r.mu.Lock()
	seen := r.notes[key]
	r.notes[key] = true
	r.mu.Unlock()
	if !seen {
		r.printf(format, args...)
	}
}
