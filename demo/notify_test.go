package demo

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/notify"
)

// TestReceiverTakesOnlySignedDeliveries: the demo's webhook records what a
// real Dispatcher sends it under the sandbox's secret, and refuses (and
// counts) a request with a wrong signature or to another path.
func TestReceiverTakesOnlySignedDeliveries(t *testing.T) {
	r, err := startReceiver()
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	if !strings.HasPrefix(r.URL, "http://127.0.0.1:") || len(r.Secret) < 32 {
		t.Fatalf("receiver %s with a %d-character secret", r.URL, len(r.Secret))
	}
	p := config.Default()
	p.Notify.WebhookURL = r.URL
	d, err := notify.New(notify.Options{Policy: p, Side: "rx", Node: "demo-node", Secret: r.Secret})
	if err != nil {
		t.Fatal(err)
	}
	d.Notify(notify.ApprovalNeeded(notify.Task{ID: "DEMO_RX_CAPTURE_001", Title: "Demo", Risk: "YELLOW"}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d.Close(ctx)
	got, bad := r.fresh()
	if len(got) != 1 || bad != 0 || got[0].Event != config.EventApprovalNeeded || got[0].TaskID != "DEMO_RX_CAPTURE_001" || got[0].Node != "demo-node" {
		t.Fatalf("received %+v (%d refused), want the one approval_needed", got, bad)
	}
	if again, _ := r.fresh(); len(again) != 0 {
		t.Errorf("a delivery was shown twice: %+v", again)
	}

	body := []byte(`{"event":"tx_executed","message":"forged"}`)
	for name, req := range map[string]func() *http.Request{
		"wrong secret": func() *http.Request {
			q, _ := http.NewRequest(http.MethodPost, r.URL, bytes.NewReader(body))
			q.Header.Set("X-Signature", "sha256="+notify.Sign([]byte("not the secret"), body))
			return q
		},
		"no signature": func() *http.Request {
			q, _ := http.NewRequest(http.MethodPost, r.URL, bytes.NewReader(body))
			return q
		},
		"another path": func() *http.Request {
			q, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(r.URL, notifyPath)+"/other", bytes.NewReader(body))
			q.Header.Set("X-Signature", "sha256="+notify.Sign([]byte(r.Secret), body))
			return q
		},
	} {
		resp, err := http.DefaultClient.Do(req())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: %s, want 401", name, resp.Status)
		}
	}
	got, bad = r.fresh()
	if len(got) != 0 || bad != 3 {
		t.Errorf("after three bad requests: %d recorded, %d refused; want 0 and 3", len(got), bad)
	}
	if tally := r.tally(); tally != "approval_needed 1" {
		t.Errorf("tally %q", tally)
	}
}
