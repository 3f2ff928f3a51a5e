package hackrfcli

import (
	"bytes"
	"strings"
	"sync"
)

func splitLines(b []byte) []string {
	var out []string
	for l := range strings.Lines(string(b)) {
		out = append(out, strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r"))
	}
	return out
}

// maxLine bounds a line the writer buffers; a longer run of bytes without a
// newline is handed on in pieces so a misbehaving tool cannot grow memory.
const maxLine = 64 << 10

// lineWriter calls fn once per complete line; it is safe for concurrent use.
type lineWriter struct {
	mu  sync.Mutex
	buf []byte
	fn  func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for i := bytes.IndexByte(w.buf, '\n'); i >= 0; i = bytes.IndexByte(w.buf, '\n') {
		w.emit(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	for len(w.buf) >= maxLine {
		w.emit(w.buf[:maxLine])
		w.buf = w.buf[maxLine:]
	}
	// Compact so the backing array does not creep forward forever.
	w.buf = append([]byte(nil), w.buf...)
	return len(p), nil
}

func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(w.buf)
		w.buf = nil
	}
}

func (w *lineWriter) emit(b []byte) {
	w.fn(strings.TrimSuffix(string(b), "\r"))
}
