package capture

import (
	"io"
	"sync/atomic"
	"time"
)

// chunkSize is large enough that per-chunk overhead vanishes, small
// enough that the tail left when the tool exits is a few ms of work.
const chunkSize = 1 << 20

// chunksInFlight bounds the foreground fan-out's memory and how far its
// fastest sink may run ahead of the slowest; the background reader only
// needs to overlap one read with the hashing.
const (
	chunksInFlight   = 24
	bgChunksInFlight = 2
)

// chunk is one read shared by every sink; the last one done frees it.
type chunk struct {
	buf  []byte
	n    int
	refs atomic.Int32
}

// fanout hands each chunk to every sink, each in its own goroutine, so
// the slowest sink, not their sum, paces the reader.
type fanout struct {
	free  chan []byte
	sinks []*sinkWorker
}

type sinkWorker struct {
	w      io.Writer
	ch     chan *chunk
	done   chan struct{}
	err    error
	doneAt time.Time
}

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

// close waits for the sinks to consume what was sent; the first sink error.
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
