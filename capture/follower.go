package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"rfhandoff/errlist"
)

// followPoll is the follower's wait at the end of the file: at 20 Msps
// (40 MB/s) it stays at most ~1 MB behind.
const followPoll = 20 * time.Millisecond

// follower reads a file another process is writing, as it grows, and
// feeds every byte once to a fan-out of sinks (doc.go, "Two streaming readers").
type follower struct {
	f       *os.File
	out     *fanout
	mayRead func() bool // nil, or asked before every read until the writer is done
	atEnd   atomic.Bool // the last read found the end of the file, or stopped
	read    atomic.Int64
	ended   chan struct{} // closed by writerDone
	quit    chan struct{} // closed by abandon
	done    chan struct{} // closed when the follower has stopped
	err     error
}

// follow starts the reader COMPLETE waits for; path must exist.
func follow(path string, sinks ...io.Writer) (*follower, error) {
	return startFollower(path, chunksInFlight, nil, sinks)
}

// followBehind starts a background reader of path into sinks: until the
// writer is done it reads only while mayRead says so.
func followBehind(path string, mayRead func() bool, sinks ...io.Writer) (*follower, error) {
	return startFollower(path, bgChunksInFlight, mayRead, sinks)
}

func startFollower(path string, inFlight int, mayRead func() bool, sinks []io.Writer) (*follower, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fl := &follower{
		f: f, out: newFanout(inFlight, sinks...), mayRead: mayRead,
		ended: make(chan struct{}), quit: make(chan struct{}), done: make(chan struct{}),
	}
	go fl.run()
	return fl, nil
}

// caughtUp says the last read found the end of the file (or the follower
// stopped) and the sinks have consumed every chunk.
func (fl *follower) caughtUp() bool {
	return fl.atEnd.Load() && len(fl.out.free) == cap(fl.out.free)
}

// sinkDone is when sink i had consumed the last byte; valid after wait.
func (fl *follower) sinkDone(i int) time.Time { return fl.out.sinks[i].doneAt }

// writerDone says the writer has exited: read to the end once more, then stop.
func (fl *follower) writerDone() {
	if !closed(fl.ended) {
		close(fl.ended)
	}
}

// closed reports whether ch is closed (it is never sent on).
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// wait stops the follower once the writer is done and the sinks have
// consumed what was read; it returns the total read.
func (fl *follower) wait() (int64, error) {
	fl.writerDone()
	<-fl.done
	return fl.read.Load(), fl.err
}

// abandon stops the follower without reading to the end (the file is void).
func (fl *follower) abandon() {
	if !closed(fl.quit) {
		close(fl.quit)
	}
	<-fl.done
}

func (fl *follower) run() {
	defer close(fl.done)
	defer fl.atEnd.Store(true)
	defer fl.f.Close()
	err := fl.loop()
	fl.err = errlist.Join(err, fl.out.close())
}

func (fl *follower) loop() error {
	timer := time.NewTimer(followPoll)
	defer timer.Stop()
	for finishing := false; ; {
		if fl.mayRead != nil && !closed(fl.ended) && !fl.mayRead() {
			timer.Reset(followPoll)
			select {
			case <-fl.quit:
				return errAbandoned
			case <-timer.C:
			}
			continue
		}
		var buf []byte
		select {
		case buf = <-fl.out.free:
		case <-fl.quit:
			return errAbandoned
		}
		n, err := fl.f.Read(buf)
		if n > 0 {
			fl.atEnd.Store(false)
			fl.out.send(buf, n)
			fl.read.Add(int64(n))
		} else {
			fl.out.free <- buf // not sent
		}
		switch {
		case err == nil && n > 0:
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return fmt.Errorf("reading the capture: %w", err)
		case finishing:
			// The writer had exited before this read: the end is final.
			return nil
		}
		fl.atEnd.Store(true)
		timer.Reset(followPoll)
		select {
		case <-fl.ended:
			finishing = true
		case <-fl.quit:
			return errAbandoned
		case <-timer.C:
		}
	}
}

var errAbandoned = errors.New("the reader was stopped before the end of the capture")
