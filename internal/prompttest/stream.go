package prompttest

import (
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Stream collects one output of a child (its terminal, stdout or stderr)
// while the child runs, and lets a test wait for text in it.
type Stream struct {
	t    testing.TB
	name string
	src  io.ReadCloser
	// filter, when set, turns each read into what is kept (conhostText).
	filter func([]byte) []byte

	mu     sync.Mutex
	buf    []byte
	pos    int           // WaitFor resumes after the previous match
	notify chan struct{} // closed and replaced whenever buf grows or ends
	ended  bool
	done   chan struct{}
	// exitNote, when set, says how the child exited, for a failure
	// after the stream ended.
	exitNote func() string
}

func newStream(t testing.TB, name string, r io.ReadCloser) *Stream {
	return newFilteredStream(t, name, r, nil)
}

func newFilteredStream(t testing.TB, name string, r io.ReadCloser, filter func([]byte) []byte) *Stream {
	s := &Stream{t: t, name: name, src: r, filter: filter, notify: make(chan struct{}), done: make(chan struct{})}
	go s.copy(r)
	return s
}

// close stops collecting and waits (bounded) for the reader to finish.
func (s *Stream) close() {
	s.src.Close()
	s.wait(drainTimeout)
}

func (s *Stream) copy(r io.Reader) {
	defer close(s.done)
	b := make([]byte, 4096)
	for {
		n, err := r.Read(b)
		got := b[:n]
		if s.filter != nil {
			got = s.filter(got)
		}
		s.mu.Lock()
		s.buf = append(s.buf, got...)
		if err != nil {
			// EOF on a pipe, EIO on a pty master once the child side is
			// closed: either way nothing more will come.
			s.ended = true
		}
		close(s.notify)
		s.notify = make(chan struct{})
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// String returns everything collected so far.
func (s *Stream) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.buf)
}

// WaitFor waits until re matches the output after the previous WaitFor's
// match and returns the submatches; the next WaitFor starts after this
// match. It fails the test when timeout passes or the output ends first.
func (s *Stream) WaitFor(re *regexp.Regexp, timeout time.Duration) []string {
	s.t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		rest := s.buf[s.pos:]
		if loc := re.FindSubmatchIndex(rest); loc != nil {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = string(rest[loc[2*i]:loc[2*i+1]])
				}
			}
			s.pos += loc[1]
			s.mu.Unlock()
			return m
		}
		ended, notify, seen := s.ended, s.notify, string(rest)
		s.mu.Unlock()
		if ended {
			note := ""
			if s.exitNote != nil {
				note = s.exitNote()
			}
			s.t.Fatalf("%s: output ended without %q%s; unmatched output:\n%s", s.name, re, note, quoteLines(seen))
		}
		select {
		case <-notify:
		case <-timer.C:
			s.t.Fatalf("%s: no %q within %v; unmatched output:\n%s", s.name, re, timeout, quoteLines(seen))
		}
	}
}

// WaitForText is WaitFor for literal text.
func (s *Stream) WaitForText(text string, timeout time.Duration) {
	s.t.Helper()
	s.WaitFor(regexp.MustCompile(regexp.QuoteMeta(text)), timeout)
}

// wait blocks until the reader has seen the end of the output.
func (s *Stream) wait(timeout time.Duration) bool {
	select {
	case <-s.done:
		return true
	case <-time.After(timeout):
		return false
	}
}

// quoteLines shows output with control characters escaped, one line each.
func quoteLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("\t" + strconv.Quote(l) + "\n")
		}
	}
	return b.String()
}
