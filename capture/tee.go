package capture

import (
	"io"
	"sync/atomic"
	"time"
)

// chunkSize is how much the follower reads at a time: large enough that
// per-chunk overhead vanishes, small enough that the tail left when the
// tool exits is a few milliseconds of work.
const chunkSize = 1 << 20

// chunksInFlight bounds the memory the foreground fan-out holds
// (chunkSize each) and how far its fastest consumer may run ahead of the
// slowest. bgChunksInFlight is the background reader's: it only needs to
// overlap one read with the hashing.
const (
	chunksInFlight   = 24
	bgChunksInFlight = 2
)

// chunk is one read shared read-only by every sink; the last sink done
// with it returns its buffer to the pool.
type chunk struct {
	buf  []byte
	n    int
	refs atomic.Int32
}

// fanout hands each chunk to every sink, each sink in its own goroutine,
// so that the sinks (the SHA-256 and the spectrogram) run in parallel and
// the slowest of them, not their sum, paces the reader.
type fanout struct {
	free  chan []byte
	sinks []*sinkWorker
}

type sinkWorker struct {
	w      io.Writer
	ch     chan *chunk
	done   chan struct{}
	err    error
	doneAt time.Time // when it consumed the last chunk
}

// newFanout holds inFlight chunks.
func newFanout(inFlight int, sinks ...io.Writer) *fanout {
	f := &fanout{free: make(chan []byte, inFlight)}
	for range inFlight {
		f.free <- make([]byte, chunkSize)
	}
	for _, w := range sinks {
		s := &sinkWorker{w: w, ch: make(chan *chunk, inFlight), done: make(chan struct{})}
		f.sinks = append(f.sinks, s)
		go s.run(f)
	}
	return f
}

// send hands buf[:n] to every sink; buf belongs to the fan-out from now on.
func (f *fanout) send(buf []byte, n int) {
	c := &chunk{buf: buf, n: n}
	c.refs.Store(int32(len(f.sinks)))
	for _, s := range f.sinks {
		s.ch <- c
	}
}

func (s *sinkWorker) run(f *fanout) {
	defer close(s.done)
	defer func() { s.doneAt = time.Now() }()
	for c := range s.ch {
		if s.err == nil {
			_, s.err = s.w.Write(c.buf[:c.n])
		}
		if c.refs.Add(-1) == 0 {
			f.free <- c.buf
		}
	}
}

// close waits for every sink to consume what was sent; the first sink error.
func (f *fanout) close() error {
	for _, s := range f.sinks {
		close(s.ch)
	}
	var err error
	for _, s := range f.sinks {
		<-s.done
		if err == nil {
			err = s.err
		}
	}
	return err
}
