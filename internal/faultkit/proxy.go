package faultkit

import (
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Proxy is a loopback TCP proxy in front of a server (a git daemon) that
// can cut a connection after the server has sent a given number of bytes:
// a network that fails in the middle of a transfer.
type Proxy struct {
	l      net.Listener
	target string

	cutAfter atomic.Int64 // server→client bytes per connection before the cut; 0 = never

	// Conns counts connections accepted; Cuts those cut by the limit.
	Conns, Cuts atomic.Int64

	mu    sync.Mutex
	open  []net.Conn
	wg    sync.WaitGroup
	close sync.Once
}

// StartProxy forwards connections on a free 127.0.0.1 port to target
// (host:port). It is closed when the test ends.
func StartProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l, target: target}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Addr is host:port.
func (p *Proxy) Addr() string { return p.l.Addr().String() }

// URL is the git:// URL of repo through the proxy.
func (p *Proxy) URL(repo string) string { return fmt.Sprintf("git://%s/%s", p.Addr(), repo) }

// CutAfter makes every new connection close after n bytes from the server
// (n <= 0: forward everything).
func (p *Proxy) CutAfter(n int64) { p.cutAfter.Store(n) }

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.Conns.Add(1)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.forward(c, p.cutAfter.Load())
		}()
	}
}

func (p *Proxy) track(c net.Conn) {
	p.mu.Lock()
	p.open = append(p.open, c)
	p.mu.Unlock()
}

func (p *Proxy) forward(client net.Conn, limit int64) {
	defer client.Close()
	p.track(client)
	server, err := net.DialTimeout("tcp", p.target, 10*time.Second)
	if err != nil {
		return
	}
	defer server.Close()
	p.track(server)
	go func() {
		_, _ = io.Copy(server, client)
		if tc, ok := server.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	if limit <= 0 {
		_, _ = io.Copy(client, server)
		return
	}
	n, _ := io.CopyN(client, server, limit)
	if n == limit {
		p.Cuts.Add(1)
		// A hard cut: drop both sides at once, as a broken link would.
		if tc, ok := client.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	}
}

// Close stops accepting and drops every open connection.
func (p *Proxy) Close() {
	p.close.Do(func() {
		p.l.Close()
		p.mu.Lock()
		for _, c := range p.open {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
}
