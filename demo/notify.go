package demo

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"rfhandoff/notify"
)

const notifyPath = "/rfhandoff-demo"

// receiver is the demo's own notification receiver (PROTOCOL#notifications):
// a webhook on 127.0.0.1 that both sides' policies name. It accepts a
// delivery only with a good X-Signature under the sandbox's secret.
type receiver struct {
	URL    string
	Secret string
	srv    *http.Server

	mu    sync.Mutex
	got   []notify.Message
	shown int
	bad   int
}

func startReceiver() (*receiver, error) {
	b := make([]byte, 24)
	rand.Read(b) // never fails (crypto/rand)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the demo's notification receiver cannot listen on 127.0.0.1: %w", err)
	}
	r := &receiver{URL: "http://" + l.Addr().String() + notifyPath, Secret: hex.EncodeToString(b)}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := r.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			r.mu.Lock()
			r.bad++
			r.mu.Unlock()
		}
	}()
	return r, nil
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 64<<10))
	want := "sha256=" + notify.Sign([]byte(r.Secret), body)
	var m notify.Message
	if err != nil || req.Method != http.MethodPost || req.URL.Path != notifyPath ||
		!hmac.Equal([]byte(req.Header.Get("X-Signature")), []byte(want)) || json.Unmarshal(body, &m) != nil {
		r.mu.Lock()
		r.bad++
		r.mu.Unlock()
		http.Error(w, "refused", http.StatusUnauthorized)
		return
	}
	r.mu.Lock()
	r.got = append(r.got, m)
	r.mu.Unlock()
}

func (r *receiver) close() { _ = r.srv.Close() }

// fresh returns the deliveries not shown yet, and how many were refused.
func (r *receiver) fresh() ([]notify.Message, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	news := append([]notify.Message(nil), r.got[r.shown:]...)
	r.shown = len(r.got)
	return news, r.bad
}

// tally is each event's count over the whole run, in name order.
func (r *receiver) tally() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := map[string]int{}
	for _, m := range r.got {
		n[m.Event]++
	}
	var counts []string
	for _, k := range slices.Sorted(maps.Keys(n)) {
		counts = append(counts, fmt.Sprintf("%s %d", k, n[k]))
	}
	if len(counts) == 0 {
		return "none"
	}
	return strings.Join(counts, ", ")
}

// showNotifications prints the deliveries that arrived since the last call.
func (d *runner) showNotifications() {
	news, bad := d.rcv.fresh()
	for _, m := range news {
		d.out.line(notifyPrefix, fmt.Sprintf("%s (%s): %s", m.Event, m.Role, m.Text))
	}
	if bad > d.badShown {
		d.out.line(notifyPrefix, fmt.Sprintf("%d deliveries refused (bad signature or request)", bad))
		d.badShown = bad
	}
}

var notifyPrefix = sidePrefix("HOOK")
