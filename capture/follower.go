package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// followPoll is how long the follower waits at the end of the file before
// looking again. At 20 Msps (40 MB/s) that leaves it at most ~1 MB behind.
const followPoll = 20 * time.Millisecond

// follower reads a file another process is writing, from its first byte,
// as it grows, and feeds every byte exactly once to a fan-out of sinks.
// It is the capture's one streaming reader: hashes and the spectrogram
// are done when the writer is, with no second pass over the file.
type follower struct {
	f     *os.File
	out   *fanout
	read  atomic.Int64
	ended chan struct{} // closed by writerDone
	done  chan struct{} // closed when the follower has stopped
	err   error
}

// follow starts reading path (which must exist) into sinks.
func follow(path string, sinks ...io.Writer) (*follower, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fl := &follower{f: f, out: newFanout(sinks...), ended: make(chan struct{}), done: make(chan struct{})}
	go fl.run()
	return fl, nil
}

// sinkDone is when sink i (in the order given to follow) had consumed
// the last byte; valid after wait.
func (fl *follower) sinkDone(i int) time.Time { return fl.out.doneAt(i) }

// Read is how many bytes the follower has handed on so far.
func (fl *follower) Read() int64 { return fl.read.Load() }

// writerDone says the writer has exited: read to the end once more, then
// stop.
func (fl *follower) writerDone() {
	select {
	case <-fl.ended:
	default:
		close(fl.ended)
	}
}

// wait stops the follower after the writer ended (writerDone) and every
// sink has consumed what was read. It returns the total read.
func (fl *follower) wait() (int64, error) {
	fl.writerDone()
	<-fl.done
	return fl.read.Load(), fl.err
}

func (fl *follower) run() {
	defer close(fl.done)
	defer fl.f.Close()
	timer := time.NewTimer(followPoll)
	defer timer.Stop()
	finishing := false
	for {
		buf := fl.out.buffer()
		n, err := fl.f.Read(buf)
		if n > 0 {
			fl.out.send(buf, n)
			fl.read.Add(int64(n))
		} else {
			fl.out.give(buf)
		}
		switch {
		case err == nil && n > 0:
			continue
		case err != nil && !errors.Is(err, io.EOF):
			fl.err = fmt.Errorf("reading the capture: %w", err)
			if cerr := fl.out.close(); cerr != nil {
				fl.err = errors.Join(fl.err, cerr)
			}
			return
		case finishing:
			// The writer had exited before this read hit the end: that
			// end is final.
			if cerr := fl.out.close(); cerr != nil {
				fl.err = cerr
			}
			return
		}
		timer.Reset(followPoll)
		select {
		case <-fl.ended:
			finishing = true
		case <-timer.C:
		}
	}
}
