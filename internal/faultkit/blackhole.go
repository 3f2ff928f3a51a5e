package faultkit

import (
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// BlackHole is a TCP listener on 127.0.0.1 that accepts every connection,
// reads and discards what the client sends, and never answers: a remote
// that hangs. Git run against it blocks until its timeout.
type BlackHole struct {
	l net.Listener
	// Accepted counts connections accepted so far.
	Accepted atomic.Int64

	mu    sync.Mutex
	conns []net.Conn
	wg    sync.WaitGroup
}

// StartBlackHole listens on a free port; it and every connection it holds
// are closed when the test ends.
func StartBlackHole(t testing.TB) *BlackHole {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &BlackHole{l: l}
	b.wg.Add(1)
	go b.serve()
	t.Cleanup(b.Close)
	return b
}

// Addr is host:port.
func (b *BlackHole) Addr() string { return b.l.Addr().String() }

// URL is a git:// URL of repo on the black hole.
func (b *BlackHole) URL(repo string) string { return fmt.Sprintf("git://%s/%s", b.Addr(), repo) }

// HTTPURL is an http:// URL of repo on the black hole.
func (b *BlackHole) HTTPURL(repo string) string { return fmt.Sprintf("http://%s/%s", b.Addr(), repo) }

func (b *BlackHole) serve() {
	defer b.wg.Done()
	for {
		c, err := b.l.Accept()
		if err != nil {
			return
		}
		b.Accepted.Add(1)
		b.mu.Lock()
		b.conns = append(b.conns, c)
		b.mu.Unlock()
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			_, _ = io.Copy(io.Discard, c) // until the client gives up or Close
		}()
	}
}

// Close stops accepting and drops every held connection.
func (b *BlackHole) Close() {
	b.l.Close()
	b.mu.Lock()
	for _, c := range b.conns {
		c.Close()
	}
	b.conns = nil
	b.mu.Unlock()
	b.wg.Wait()
}
