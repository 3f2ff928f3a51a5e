package security

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
)

// statusServer is a webhook whose every answer has the status line the
// test sets, written raw on the connection (a hostile or broken receiver).
type statusServer struct {
	URL    string
	mu     sync.Mutex
	status string
}

func startStatusServer(t *testing.T, status string) *statusServer {
	t.Helper()
	s := &statusServer{status: status}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		s.mu.Lock()
		status := s.status
		s.mu.Unlock()
		fmt.Fprintf(buf, "HTTP/1.1 %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", status)
		_ = buf.Flush()
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func (s *statusServer) set(status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status = status
}

// Finding 4 of issue 29 (PROTOCOL#audit-log, PROTOCOL#hidden-text): what a receiver answers is
// escaped wherever rfhandoff prints it. A webhook's status line holding
// terminal escape sequences is kept in the audit log, and `audit show`
// (text and --json) and the failure warning print it escaped, never raw.
func TestSecurityReceiverAnswerEscaped(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	hook := startStatusServer(t, "200 "+hostileText)
	lab.RX.Policy.Notify.WebhookURL = hook.URL + "/hook"
	lab.RX.WritePolicy()

	lab.PushTask(tasktest.TaskSpec{ID: "SEC_ANSWER_0001", Level: gate.Yellow})
	first := lab.RX.Run(faultkit.Wait, "-v", "rx", "check")
	if first.Code != 10 {
		t.Fatalf("rx check: want exit 10\n%s", first)
	}
	hook.set("418 " + hostileText) // a refusal: the warning quotes it
	lab.PushTask(tasktest.TaskSpec{ID: "SEC_ANSWER_0002", Level: gate.Yellow})
	second := lab.RX.Run(faultkit.Wait, "-v", "rx", "check")
	if second.Code != 10 || !strings.Contains(second.Stderr, "delivery failed") {
		t.Fatalf("rx check with a refusing webhook: want exit 10 and the failure reported\n%s", second)
	}
	for what, out := range map[string]string{"rx check": first.All(), "rx check (refused)": second.All()} {
		if raw := rawSequences(out); len(raw) != 0 {
			t.Errorf("%s printed %q raw", what, raw)
		}
	}

	show := lab.RX.Run(faultkit.Wait, "audit", "show")
	if show.Code != 0 || strings.Count(show.Stdout, "NOTIFY approval_needed -> webhook") != 2 {
		t.Fatalf("audit show: want both deliveries listed\n%s", show)
	}
	if raw := rawSequences(show.All()); len(raw) != 0 {
		t.Errorf("audit show printed %q raw:\n%s", raw, show.Stdout)
	}
	if !strings.Contains(show.Stdout, "200 look <U+001B>]0;PWNED<U+0007> here") || !strings.Contains(show.Stdout, "418 look <U+001B>") {
		t.Errorf("audit show does not show the answers escaped:\n%s", show.Stdout)
	}

	js := lab.RX.Run(faultkit.Wait, "audit", "show", "--json")
	if js.Code != 0 {
		t.Fatalf("audit show --json\n%s", js)
	}
	if raw := rawSequences(js.All()); len(raw) != 0 {
		t.Errorf("audit show --json printed %q raw", raw)
	}
	// Still the very text, for a program reading the JSON.
	var statuses []string
	sc := bufio.NewScanner(strings.NewReader(js.Stdout))
	for sc.Scan() {
		var e struct{ Event, Status string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("audit show --json line %q: %v", sc.Text(), err)
		}
		if e.Event == "delivery" {
			statuses = append(statuses, e.Status)
		}
	}
	if len(statuses) != 2 || statuses[0] != "200 "+hostileText || statuses[1] != "418 "+hostileText {
		t.Errorf("audit show --json statuses %q, want the answers exactly", statuses)
	}
}
