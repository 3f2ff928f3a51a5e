package e2e

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/notify"
)

// hookServer is a real webhook receiver on 127.0.0.1 that checks every
// request's signature with its copy of the secret. It can answer 500,
// hang until the sender gives up, or be down (nothing listening on its
// port) and come back on the same address.
type hookServer struct {
	URL  string
	addr string
	srv  *http.Server

	mu     sync.Mutex
	l      net.Listener
	conns  map[net.Conn]bool // open connections, closed by down
	mode   string            // "" (200), "500", "hang"
	events []map[string]string
	bad    int
	tries  int // every request that reached the handler
}

func startHookServer(t *testing.T, secret string) *hookServer {
	t.Helper()
	h := &hookServer{conns: map[net.Conn]bool{}}
	h.srv = &http.Server{ConnState: h.track, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.tries++
		mode := h.mode
		h.mu.Unlock()
		switch mode {
		case "500":
			w.WriteHeader(http.StatusInternalServerError)
			return
		case "hang":
			<-r.Context().Done() // the sender's timeout ends it
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		var ev map[string]string
		if r.Header.Get("X-Signature") != "sha256="+notify.Sign([]byte(secret), body) || json.Unmarshal(body, &ev) != nil {
			h.bad++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.events = append(h.events, ev)
	})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.addr = l.Addr().String()
	h.URL = "http://" + h.addr
	h.serve(l)
	t.Cleanup(func() { _ = h.srv.Close() })
	return h
}

func (h *hookServer) serve(l net.Listener) {
	h.mu.Lock()
	h.l = l
	h.mu.Unlock()
	go func() { _ = h.srv.Serve(l) }()
}

// setMode makes the receiver answer 200 (""), 500 ("500") or hang ("hang").
func (h *hookServer) setMode(mode string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mode = mode
}

func (h *hookServer) track(c net.Conn, st http.ConnState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch st {
	case http.StateNew:
		h.conns[c] = true
	case http.StateClosed, http.StateHijacked:
		delete(h.conns, c)
	}
}

// down stops listening and drops every open connection (a kept-alive one
// too): a delivery finds nothing on the port.
func (h *hookServer) down(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.l.Close(); err != nil {
		t.Fatal(err)
	}
	for c := range h.conns {
		_ = c.Close()
	}
}

// up listens again on the same address.
func (h *hookServer) up(t *testing.T) {
	t.Helper()
	l, err := net.Listen("tcp", h.addr)
	if err != nil {
		t.Fatalf("the hook server cannot listen on %s again: %v", h.addr, err)
	}
	h.serve(l)
}

func (h *hookServer) received() ([]map[string]string, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]string(nil), h.events...), h.bad
}

func (h *hookServer) requests() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tries
}

// TestNotifyRxCheckOncePerTask: cron runs rx check every minute; the
// person is told once per task digest, and again for a new task.
func TestNotifyRxCheckOncePerTask(t *testing.T) {
	t.Parallel()
	const secret = "whsec_E2E_SECRET_31"
	rx := rxtest.New(t, rxtest.Options{})
	hook := startHookServer(t, secret)
	secretFile := filepath.Join(t.TempDir(), "hook.secret")
	if err := os.WriteFile(secretFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rx.Policy.Notify.WebhookURL = hook.URL + "/rfhandoff"
	rx.Policy.Notify.WebhookSecretFile = secretFile
	rx.WritePolicy()

	rx.PushTask(tasktest.TaskSpec{ID: "NOTIFY_ONCE_1", HardwareAccess: true, RFRX: true})
	var stderr string
	for range 2 {
		code, _, errOut := rxMain(t, rx, "-v", "rx", "check")
		stderr += errOut
		if code != 10 {
			t.Fatalf("rx check: exit %d, stderr %q", code, errOut)
		}
	}
	evs, bad := hook.received()
	if bad != 0 || len(evs) != 1 {
		t.Fatalf("after two checks of one task: %d events (%v), %d badly signed; want one approval_needed", len(evs), evs, bad)
	}
	ev := evs[0]
	if ev["event"] != config.EventApprovalNeeded || ev["role"] != "rx" || ev["task_id"] != "NOTIFY_ONCE_1" ||
		ev["risk_level"] != "YELLOW" || ev["title"] == "" || !strings.Contains(ev["message"], "awaits [A]") {
		t.Errorf("event %v", ev)
	}
	if st := loadRX(t, rx); st.NotifiedTaskSHA256 == "" || st.LastApprovedTaskID != "" {
		t.Errorf("state %+v: want the notified digest recorded and nothing approved", st)
	}

	rx.PushTask(tasktest.TaskSpec{ID: "NOTIFY_ONCE_2", HardwareAccess: true, RFRX: true})
	if code, _, errOut := rxMain(t, rx, "-v", "rx", "check"); code != 10 {
		t.Fatalf("second task: exit %d, %s", code, errOut)
	} else {
		stderr += errOut
	}
	if evs, _ := hook.received(); len(evs) != 2 || evs[1]["task_id"] != "NOTIFY_ONCE_2" {
		t.Fatalf("a new task was not announced: %v", evs)
	}

	// The audit log lists what was sent; nothing secret anywhere.
	data, err := os.ReadFile(rx.Policy.AuditPath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.VerifyAuditLog(rx.Policy.AuditPath()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"event":"delivery"`); n != 2 {
		t.Errorf("%d delivery lines in the audit log, want 2", n)
	}
	_, show, _ := rxMain(t, rx, "audit", "show")
	if !strings.Contains(show, "NOTIFY approval_needed -> webhook "+strings.TrimPrefix(hook.URL, "http://")+": 200 OK") {
		t.Errorf("audit show does not list the delivery:\n%s", show)
	}
	for what, text := range map[string]string{"audit log": string(data), "-v output": stderr, "audit show": show} {
		if strings.Contains(text, secret) || strings.Contains(text, "/rfhandoff\"") {
			t.Errorf("the %s holds the secret or the hook's path", what)
		}
	}
}
