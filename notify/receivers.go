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
	"time"

	"rfhandoff/exec"
)

// receiver delivers one message. status is what the destination answered
// ("200 OK", "exit 0"); a failed delivery returns an error and whether a
// retry could help.
type receiver interface {
	kind() string
	host() string
	send(ctx context.Context, m Message) (status string, retry bool, err error)
	// audited is true when the seam already audits the delivery (a command).
	audited() bool
}

// client never follows a redirect (a bearer token goes to the host the
// policy names and nowhere else) and uses no cookies.
func newClient() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

type ntfy struct {
	url, hostName, token string
	client               *http.Client
}

func (n *ntfy) kind() string  { return "ntfy" }
func (n *ntfy) host() string  { return n.hostName }
func (n *ntfy) audited() bool { return false }

// send is ntfy's publish API: POST the message as body to the topic URL,
// with Title, Priority and Tags headers (Title RFC 2047-encoded when it is
// not ASCII, as ntfy reads it).
func (n *ntfy) send(ctx context.Context, m Message) (string, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, bytes.NewReader([]byte(m.Text)))
	if err != nil {
		return "", false, plainError(err)
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Title", mime.QEncoding.Encode("utf-8", m.Headline))
	req.Header.Set("Priority", strconv.Itoa(m.Priority))
	req.Header.Set("Tags", m.Tags)
	if n.token != "" {
		req.Header.Set("Authorization", "Bearer "+n.token)
	}
	return do(n.client, req)
}

type webhook struct {
	url, hostName, secret string
	client                *http.Client
}

func (w *webhook) kind() string  { return "webhook" }
func (w *webhook) host() string  { return w.hostName }
func (w *webhook) audited() bool { return false }

// send POSTs the message as JSON; with a secret, X-Signature carries
// sha256=<hex HMAC-SHA256 of the exact body> (Flux's generic-hmac scheme).
func (w *webhook) send(ctx context.Context, m Message) (string, bool, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return "", false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return "", false, plainError(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if w.secret != "" {
		req.Header.Set("X-Signature", "sha256="+Sign([]byte(w.secret), body))
	}
	return do(w.client, req)
}

// Sign is the webhook signature: hex HMAC-SHA256 of body with secret.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// do sends req; a 2xx is delivered, a 5xx or 429 or a network error may
// be retried, any other answer is final.
func do(c *http.Client, req *http.Request) (string, bool, error) {
	resp, err := c.Do(req)
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
}

// plainError drops the URL net/http puts in its errors: an ntfy topic URL
// is as good as a password (whoever knows it can subscribe), so only the
// host is ever named (by the caller).
func plainError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

type command struct {
	argv    []string // as configured; argv[0] is the program
	runner  exec.Runner
	secret  []string
	timeout time.Duration
}

func (c *command) kind() string  { return "command" }
func (c *command) host() string  { return "" }
func (c *command) audited() bool { return true }

// send runs the command through the audited seam, never a shell: the
// closed placeholders replaced as whole arguments, the message on its
// standard input (inertJSON) and in its environment (environ).
func (c *command) send(ctx context.Context, m Message) (string, bool, error) {
	args, err := argv(c.argv[1:], m, true)
	if err != nil {
		return "", false, err
	}
	res, err := c.runner.Run(ctx, exec.Cmd{
		Tool: exec.Notify, Args: args, Env: environ(m), Stdin: bytes.NewReader(inertJSON(m)),
		MaxOutput: 64 << 10, Secrets: c.secret, Timeout: c.timeout,
	})
	if err != nil {
		// A command that never started is not retried.
		return "", !errors.Is(err, exec.ErrDenied) && !errors.Is(err, exec.ErrNotInstalled), err
	}
	return fmt.Sprintf("exit %d", res.ExitCode), false, nil
}
