package capture

import (
	"bytes"
	"crypto/sha512"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// gateSink blocks in its first Write until opened, then keeps every byte.
type gateSink struct {
	gate  chan struct{}
	calls atomic.Int32
	buf   bytes.Buffer
}

func (g *gateSink) Write(p []byte) (int, error) {
	if g.calls.Add(1) == 1 {
		<-g.gate
	}
	return g.buf.Write(p)
}

// TestFollowBehindNeverHoldsBack: with the background reader's sink stuck,
// the foreground reader still reads the whole file (more than both
// read-aheads together) and stops; the background one then catches up
// with every byte once its sink moves.
func TestFollowBehindNeverHoldsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	data := make([]byte, (chunksInFlight+bgChunksInFlight+6)*chunkSize+123)
	for i := range data {
		data[i] = byte(i*7 + i>>20)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var fg bytes.Buffer
	fol, err := follow(path, &fg)
	if err != nil {
		t.Fatal(err)
	}
	slow := &gateSink{gate: make(chan struct{})}
	bg, err := followBehind(path, nil, slow)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if n, err := fol.wait(); err != nil || n != int64(len(data)) {
			t.Errorf("foreground wait = %d, %v; want %d", n, err, len(data))
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the foreground reader is held back by the stuck background sink")
	}
	if !bytes.Equal(fg.Bytes(), data) {
		t.Fatalf("the foreground sink got %d of %d bytes", fg.Len(), len(data))
	}
	if bg.Read() >= int64(len(data)) {
		t.Fatalf("the background reader read %d bytes with its sink stuck: its read-ahead is unbounded", bg.Read())
	}
	close(slow.gate)
	n, err := bg.wait()
	if err != nil || n != int64(len(data)) || !bytes.Equal(slow.buf.Bytes(), data) {
		t.Fatalf("background wait = %d, %v with %d bytes in its sink; want all %d", n, err, slow.buf.Len(), len(data))
	}
	if got, want := sha512.Sum512(slow.buf.Bytes()), sha512.Sum512(data); got != want {
		t.Fatal("background SHA-512 input differs")
	}
}

// TestFollowerAbandon: a void capture's background reader stops while the
// file is still open for writing, without waiting for an end.
func TestFollowerAbandon(t *testing.T) {
	path := filepath.Join(t.TempDir(), "void.ci8")
	if err := os.WriteFile(path, bytes.Repeat([]byte{9}, 3*chunkSize), 0o600); err != nil {
		t.Fatal(err)
	}
	var sink bytes.Buffer
	bg, err := followBehind(path, nil, &sink)
	if err != nil {
		t.Fatal(err)
	}
	// Wait until it has read what is there and sits at the end.
	for deadline := time.Now().Add(time.Minute); bg.Read() < 3*chunkSize; {
		if time.Now().After(deadline) {
			t.Fatalf("read %d bytes", bg.Read())
		}
		time.Sleep(followPoll)
	}
	bg.abandon() // no writerDone: the writer never said it ended
	if _, err := bg.wait(); !errors.Is(err, errAbandoned) {
		t.Fatalf("wait after abandon = %v, want errAbandoned", err)
	}
	bg.abandon() // twice is harmless
}

// TestFollowBehindTakesItsTurn: the background reader reads nothing while
// its mayRead says no, however often it asks, and everything once it says
// yes.
func TestFollowBehindTakesItsTurn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	data := bytes.Repeat([]byte{1, 2, 3, 4, 5}, chunkSize)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	var open atomic.Bool
	var sink bytes.Buffer
	bg, err := followBehind(path, func() bool { asked.Add(1); return open.Load() }, &sink)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); asked.Load() < 5; {
		if time.Now().After(deadline) {
			t.Fatalf("mayRead asked %d times", asked.Load())
		}
		time.Sleep(followPoll)
	}
	if n := bg.Read(); n != 0 {
		t.Fatalf("read %d bytes while mayRead said no", n)
	}
	open.Store(true)
	if n, err := bg.wait(); err != nil || n != int64(len(data)) || !bytes.Equal(sink.Bytes(), data) {
		t.Fatalf("wait = %d, %v (%d bytes in the sink); want all %d", n, err, sink.Len(), len(data))
	}
}

// TestFollowBehindDrainsOnceTheWriterIsDone: once the writer has ended,
// the background reader no longer asks mayRead: COMPLETE waits for it,
// so it reads to the end while mayRead still says no.
func TestFollowBehindDrainsOnceTheWriterIsDone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	data := bytes.Repeat([]byte{6, 7, 8}, chunkSize)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	var sink bytes.Buffer
	bg, err := followBehind(path, func() bool { asked.Add(1); return false }, &sink)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); asked.Load() < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("mayRead asked %d times", asked.Load())
		}
		time.Sleep(followPoll)
	}
	if n := bg.Read(); n != 0 {
		t.Fatalf("read %d bytes while mayRead said no", n)
	}
	bg.writerDone()
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		if n, err := bg.wait(); err != nil || n != int64(len(data)) || !bytes.Equal(sink.Bytes(), data) {
			t.Errorf("wait after writerDone = %d, %v (%d bytes in the sink); want all %d", n, err, sink.Len(), len(data))
		}
	}()
	select {
	case <-drained:
	case <-time.After(time.Minute):
		bg.abandon()
		t.Fatal("the background reader still waits for mayRead after the writer is done")
	}
}

// TestFollowerCaughtUp: a follower is caught up only when its reader sits
// at the end of the file and its sinks have consumed every chunk.
func TestFollowerCaughtUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.ci8")
	if err := os.WriteFile(path, bytes.Repeat([]byte{7}, 3*chunkSize), 0o600); err != nil {
		t.Fatal(err)
	}
	slow := &gateSink{gate: make(chan struct{})}
	fol, err := follow(path, slow)
	if err != nil {
		t.Fatal(err)
	}
	poll := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); !cond(); {
			if time.Now().After(deadline) {
				t.Fatalf("not %s within a minute", what)
			}
			time.Sleep(followPoll)
		}
	}
	poll("at the end of the file", func() bool { return fol.Read() == 3*chunkSize && fol.atEnd.Load() })
	if fol.caughtUp() {
		t.Fatal("caught up while its sink still holds chunks")
	}
	close(slow.gate)
	poll("caught up", fol.caughtUp)
	if _, err := fol.wait(); err != nil {
		t.Fatal(err)
	}
	if !fol.caughtUp() {
		t.Error("a stopped follower is not caught up")
	}
}
