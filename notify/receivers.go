package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"

	"rfhandoff/exec"
)

// receiver's send returns the answer ("200 OK", "exit 0") and whether a retry could help.
type receiver struct {
	kind, host string
	send       func(ctx context.Context, m Message) (status string, retry bool, err error)
}

func ntfy(rawURL, token string) receiver {
	return post("ntfy", rawURL, func(m Message) ([]byte, http.Header) {
		h := http.Header{
			"Content-Type": {"text/plain; charset=utf-8"},
			"Title":        {mime.QEncoding.Encode("utf-8", m.Headline)},
			"Priority":     {strconv.Itoa(m.Priority)},
			"Tags":         {m.Tags},
		}
		if token != "" {
			h.Set("Authorization", "Bearer "+token)
		}
		return []byte(m.Text), h
	})
}

// webhook: with a secret, X-Signature is Flux's generic-hmac scheme.
func webhook(rawURL, secret string) receiver {
	return post("webhook", rawURL, func(m Message) ([]byte, http.Header) {
		body, _ := json.Marshal(m) // its JSON fields are all strings: it cannot fail
		h := http.Header{"Content-Type": {"application/json"}}
		if secret != "" {
			h.Set("X-Signature", "sha256="+Sign([]byte(secret), body))
		}
		return body, h
	})
}

// Sign is hex HMAC-SHA256 of body with secret.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// post retries only a 5xx, 429 or network error. It never follows a
// redirect: a bearer token goes to the host the policy names only.
func post(kind, rawURL string, build func(Message) ([]byte, http.Header)) receiver {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return receiver{kind: kind, host: hostOf(rawURL), send: func(ctx context.Context, m Message) (string, bool, error) {
		body, header := build(m)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(body))
		if err != nil {
			return "", false, plainError(err)
		}
		req.Header = header
		resp, err := client.Do(req)
		if err != nil {
			return "", true, plainError(err)
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			return resp.Status, false, nil
		}
		retry := resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
		return resp.Status, retry, fmt.Errorf("answered %s", resp.Status)
	}}
}

// plainError drops the URL net/http puts in its errors: an ntfy topic URL
// is as good as a password, so only the host is named.
func plainError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// command runs the [notify] command through the audited seam, never a shell.
func (d *Dispatcher) command() receiver {
	n := d.o.Policy.Notify
	return receiver{kind: "command", send: func(ctx context.Context, m Message) (string, bool, error) {
		args, err := argv(n.Command[1:], m, true)
		if err != nil {
			return "", false, err
		}
		res, err := d.o.Runner.Run(ctx, exec.Cmd{
			Tool: exec.Notify, Args: args, Env: environ(m), Stdin: bytes.NewReader(inertJSON(m)),
			MaxOutput: 64 << 10, Secrets: d.secrets, Timeout: n.Timeout.Duration,
		})
		if err != nil {
			// A command that never started is not retried.
			return "", !errors.Is(err, exec.ErrDenied) && !errors.Is(err, exec.ErrNotInstalled), err
		}
		return fmt.Sprintf("exit %d", res.ExitCode), false, nil
	}}
}
