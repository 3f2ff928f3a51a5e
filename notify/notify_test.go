package notify

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cli/safeexec"

	"rfhandoff/config"
	"rfhandoff/exec"
)

const (
	testToken  = "tk_SECRET_token_4f1d"
	testSecret = "whsec_SECRET_7a9c"
)

// syncBuf is a log sink the workers may write to while the test reads it.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// request is what a test server received.
type request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// recorder is a real HTTP server on 127.0.0.1 that keeps every request
// and answers with status() (200 by default).
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	reqs   []request
	got    chan request
	status func() int
}

func startRecorder(t *testing.T) *recorder {
	r := &recorder{got: make(chan request, 64), status: func() int { return http.StatusOK }}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		rq := request{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(), Body: body}
		r.mu.Lock()
		r.reqs = append(r.reqs, rq)
		st := r.status()
		r.mu.Unlock()
		w.WriteHeader(st)
		r.got <- rq
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) next(t *testing.T) request {
	t.Helper()
	select {
	case rq := <-r.got:
		return rq
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver got nothing")
		return request{}
	}
}

type fixture struct {
	pol    config.Policy
	audit  *exec.AuditLog
	log    *syncBuf
	dir    string
	logger *slog.Logger
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	audit, err := exec.OpenAuditLog(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	pol := config.Default()
	pol.Repo.Path = dir
	pol.Notify.Timeout = config.Duration{Duration: 2 * time.Second}
	buf := &syncBuf{}
	return &fixture{pol: pol, audit: audit, log: buf, dir: dir,
		logger: slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))}
}

func (f *fixture) writeFile(t *testing.T, name, content string) string {
	p := filepath.Join(f.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fixture) start(t *testing.T, runner exec.Runner) *Dispatcher {
	t.Helper()
	if err := f.pol.Validate(); err != nil {
		t.Fatalf("test policy invalid: %v", err)
	}
	token, secret, err := f.pol.ReadNotifySecrets()
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Options{Policy: f.pol, Side: "rx", Node: "lab-rx1", Runner: runner, Audit: f.audit,
		Logger: f.logger, Token: token, Secret: secret, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(context.Background()) })
	return d
}

func approval() Event {
	return Event{Name: config.EventApprovalNeeded, TaskID: "RX_TEST_001", Title: "Capture the 433 MHz beacon",
		RiskLevel: "YELLOW", Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Detail: "a new task awaits [A] at the RX terminal"}
}

// auditText is the whole log, after the dispatcher drained.
func (f *fixture) auditText(t *testing.T) string {
	data, err := os.ReadFile(f.audit.Path())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.VerifyAuditLog(f.audit.Path()); err != nil {
		t.Fatalf("audit chain: %v", err)
	}
	return string(data)
}

func deliveries(t *testing.T, f *fixture) []exec.Entry {
	es, err := exec.ReadAuditTail(f.audit.Path(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []exec.Entry
	for _, e := range es {
		if e.Event == exec.EventDelivery {
			out = append(out, e)
		}
	}
	return out
}

func TestNtfyRequestShape(t *testing.T) {
	f := newFixture(t)
	srv := startRecorder(t)
	f.pol.Notify.NtfyURL = srv.URL + "/lab-rf-7f3k"
	f.pol.Notify.NtfyTokenFile = "ntfy.token"
	f.writeFile(t, "ntfy.token", testToken+"\n")
	d := f.start(t, nil)
	d.Notify(approval())
	rq := srv.next(t)
	d.Close(context.Background())

	if rq.Method != http.MethodPost || rq.Path != "/lab-rf-7f3k" {
		t.Errorf("request %s %s, want POST /lab-rf-7f3k", rq.Method, rq.Path)
	}
	if got := rq.Header.Get("Authorization"); got != "Bearer "+testToken {
		t.Errorf("Authorization = %q, want the token from the file as a bearer", got)
	}
	title, err := new(mime.WordDecoder).DecodeHeader(rq.Header.Get("Title"))
	if err != nil || title != "rfhandoff: approval needed RX_TEST_001" {
		t.Errorf("Title = %q (%v)", title, err)
	}
	if got := rq.Header.Get("Priority"); got != "4" {
		t.Errorf("Priority = %q, want 4", got)
	}
	if got := rq.Header.Get("Tags"); got != "rfhandoff,approval_needed" {
		t.Errorf("Tags = %q", got)
	}
	body := string(rq.Body)
	for _, want := range []string{"approval_needed", "rx on lab-rx1", "RX_TEST_001", `"Capture the 433 MHz beacon"`, "(YELLOW)", "2026-03-01T12:00:00Z", "awaits [A]"} {
		if !strings.Contains(body, want) {
			t.Errorf("body %q lacks %q", body, want)
		}
	}
	es := deliveries(t, f)
	if len(es) != 1 || es[0].Notification != config.EventApprovalNeeded || es[0].Receiver != "ntfy" ||
		es[0].Host != strings.TrimPrefix(srv.URL, "http://") || es[0].Status != "200 OK" || es[0].DurationMS == nil {
		t.Fatalf("audit deliveries = %+v, want one ntfy line with host and status", es)
	}
	text := f.auditText(t)
	for _, secret := range []string{testToken, "lab-rf-7f3k"} {
		if strings.Contains(text, secret) || strings.Contains(f.log.String(), secret) {
			t.Errorf("%q (token or topic) reached the audit log or the log", secret)
		}
	}
}

func TestWebhookJSONAndSignature(t *testing.T) {
	f := newFixture(t)
	srv := startRecorder(t)
	f.pol.Notify.WebhookURL = srv.URL + "/hook"
	f.pol.Notify.WebhookSecretFile = f.writeFile(t, "hook.secret", testSecret)
	d := f.start(t, nil)
	ev := approval()
	ev.Name = config.EventAuthorizationNeeded
	ev.Role = "main"
	ev.Detail = "type AUTHORIZE RF TX at the MAIN terminal: 24 s left"
	d.Notify(ev)
	rq := srv.next(t)

	if ct := rq.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	// The receiving side checks the signature with its copy of the secret.
	sig, ok := strings.CutPrefix(rq.Header.Get("X-Signature"), "sha256=")
	mac, err := hex.DecodeString(sig)
	if !ok || err != nil || !hmac.Equal(mac, mustHex(Sign([]byte(testSecret), rq.Body))) {
		t.Fatalf("X-Signature %q does not verify with the secret", rq.Header.Get("X-Signature"))
	}
	if hmac.Equal(mac, mustHex(Sign([]byte("another secret"), rq.Body))) {
		t.Fatal("signature verifies with any secret")
	}
	var got map[string]string
	if err := json.Unmarshal(rq.Body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"event": "authorization_needed", "role": "main", "node": "lab-rx1", "task_id": "RX_TEST_001",
		"title": "Capture the 433 MHz beacon", "risk_level": "YELLOW", "time": "2026-03-01T12:00:00Z",
	}
	if len(got) != len(want)+1 {
		t.Errorf("JSON keys %v, want exactly %v and message", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if !strings.Contains(got["message"], "24 s left") {
		t.Errorf("message %q does not say the seconds left", got["message"])
	}
	d.Close(context.Background())
	if strings.Contains(f.auditText(t), testSecret) || strings.Contains(string(rq.Body), testSecret) {
		t.Error("the webhook secret reached the audit log or the body")
	}
}

func mustHex(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

func TestHiddenCharactersInTitleAreEscaped(t *testing.T) {
	f := newFixture(t)
	srv := startRecorder(t)
	f.pol.Notify.WebhookURL = srv.URL
	d := f.start(t, nil)
	ev := approval()
	ev.Title = "Beacon\u202egnp.exe\u200b\x1b[2J"
	d.Notify(ev)
	rq := srv.next(t)
	var got map[string]string
	if err := json.Unmarshal(rq.Body, &got); err != nil {
		t.Fatal(err)
	}
	if got["title"] != "Beacon<U+202E>gnp.exe<U+200B><U+001B>[2J" {
		t.Errorf("title = %q, want the hidden characters escaped", got["title"])
	}
	for _, r := range []string{"\u202e", "\u200b", "\x1b"} {
		if strings.Contains(got["message"], r) || strings.Contains(got["title"], r) {
			t.Errorf("%q reached the receiver raw", r)
		}
	}
}

func TestFailingReceiverReportedOnceAndNextEventGoesOut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(t *testing.T, r *recorder, f *fixture) (url string, heal func())
	}{
		{"answers 500", func(t *testing.T, r *recorder, f *fixture) (string, func()) {
			var mu sync.Mutex
			code := http.StatusInternalServerError
			r.status = func() int { mu.Lock(); defer mu.Unlock(); return code }
			return r.URL, func() { mu.Lock(); code = http.StatusOK; mu.Unlock() }
		}},
		{"down", func(t *testing.T, r *recorder, f *fixture) (string, func()) {
			// A listener that is closed: connection refused.
			dead := httptest.NewServer(http.NotFoundHandler())
			url := dead.URL
			dead.Close()
			return url, nil
		}},
		{"hangs", func(t *testing.T, r *recorder, f *fixture) (string, func()) {
			release := make(chan struct{})
			hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				select {
				case <-req.Context().Done():
				case <-release:
				}
			}))
			t.Cleanup(func() { close(release); hang.Close() })
			f.pol.Notify.Timeout = config.Duration{Duration: 100 * time.Millisecond}
			return hang.URL, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			good := startRecorder(t)
			bad := startRecorder(t)
			url, heal := tc.break_(t, bad, f)
			f.pol.Notify.NtfyURL = url + "/topic"
			f.pol.Notify.WebhookURL = good.URL + "/hook"
			d := f.start(t, nil)
			// Three events while ntfy fails: each Notify returns at once
			// (a blocking one would hang here), the webhook gets them all.
			for i := 0; i < 3; i++ {
				d.Notify(approval())
			}
			for i := 0; i < 3; i++ {
				good.next(t)
			}
			if heal != nil {
				waitFor(t, func() bool { return failed(d, "ntfy") == 3 })
				heal()
				d.Notify(approval())
			}
			d.Close(context.Background())
			if heal != nil {
				bad.mu.Lock()
				n := len(bad.reqs)
				bad.mu.Unlock()
				if n != 3*maxAttempts+1 {
					t.Errorf("ntfy got %d requests, want %d (each failing event tried %d times, then one delivery)", n, 3*maxAttempts+1, maxAttempts)
				}
			}
			logs := f.log.String()
			if n := strings.Count(logs, "delivery failed"); n != 1 {
				t.Errorf("failure reported %d times, want once:\n%s", n, logs)
			}
			if got := failed(d, "ntfy"); got != 3 {
				t.Errorf("ntfy failed count = %d, want 3", got)
			}
			if heal != nil && !strings.Contains(logs, "delivering again") {
				t.Errorf("recovery not reported:\n%s", logs)
			}
			var ntfyLines int
			for _, e := range deliveries(t, f) {
				if e.Receiver == "ntfy" {
					ntfyLines++
				}
			}
			want := 3
			if heal != nil {
				want = 4
			}
			if ntfyLines != want {
				t.Errorf("%d ntfy delivery lines in the audit log, want %d", ntfyLines, want)
			}
		})
	}
}

func failed(d *Dispatcher, receiver string) int {
	for _, s := range d.stats() {
		if s.Receiver == receiver {
			return s.Failed
		}
	}
	return -1
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition never held")
}

func TestNotifyNeverBlocksOnAFullQueue(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		select {
		case <-req.Context().Done():
		case <-release:
		}
	}))
	defer hang.Close()
	f.pol.Notify.WebhookURL = hang.URL
	f.pol.Notify.Timeout = config.Duration{Duration: 30 * time.Second}
	d := f.start(t, nil)
	for i := 0; i < queueLength+10; i++ {
		d.Notify(approval()) // returns although the receiver holds the first
	}
	s := d.stats()
	if len(s) != 1 || s[0].Dropped < 9 {
		t.Errorf("stats %+v, want the events beyond the queue dropped and counted", s)
	}
	if n := strings.Count(f.log.String(), "queue full"); n != 1 {
		t.Errorf("queue full reported %d times, want once", n)
	}
	close(release)
}

func TestEventsFilter(t *testing.T) {
	f := newFixture(t)
	srv := startRecorder(t)
	f.pol.Notify.WebhookURL = srv.URL
	f.pol.Notify.Events = []string{config.EventCaptureFailed}
	d := f.start(t, nil)
	d.Notify(approval())
	d.Notify(Event{Name: config.EventCaptureFailed, TaskID: "RX_TEST_001", Detail: "hackrf_transfer exited 1"})
	rq := srv.next(t)
	d.Close(context.Background())
	if !strings.Contains(string(rq.Body), `"event":"capture_failed"`) {
		t.Errorf("first delivery %s, want only capture_failed", rq.Body)
	}
	if n := len(deliveries(t, f)); n != 1 {
		t.Errorf("%d deliveries, want 1 (approval_needed is not in notify.events)", n)
	}
}

func TestRenderRedactsSecretsAndCredentials(t *testing.T) {
	ev := approval()
	ev.Detail = "fetch failed: https://bob:hunter2@git.example.org/lab.git: token " + testToken
	m := render(ev, testToken)
	if strings.Contains(m.Text, "hunter2") || strings.Contains(m.Text, testToken) {
		t.Errorf("message %q holds a credential", m.Text)
	}
	if !strings.Contains(m.Text, "bob:REDACTED@") {
		t.Errorf("message %q lost the redaction marker", m.Text)
	}
}

// buildArgvDump builds the test's notification command.
func buildArgvDump(t *testing.T) string {
	t.Helper()
	gobin, err := safeexec.LookPath("go")
	if err != nil {
		t.Skip("the go command builds the test receiver:", err)
	}
	bin := filepath.Join(t.TempDir(), "argvdump")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	proc, err := os.StartProcess(gobin, []string{gobin, "build", "-o", bin, "./testdata/argvdump"},
		&os.ProcAttr{Env: os.Environ(), Files: []*os.File{nil, os.Stderr, os.Stderr}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := proc.Wait()
	if err != nil || !st.Success() {
		t.Fatalf("go build argvdump: %v %v", st, err)
	}
	return bin
}

// dump is one run of argvdump.
type dump struct {
	Argv  []string          `json:"argv"`
	Stdin string            `json:"stdin"`
	Env   map[string]string `json:"env"`
}

func readDumps(t *testing.T, path string) []dump {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the command did not run: %v", err)
	}
	var out []dump
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var d dump
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

func commandFixture(t *testing.T, args ...string) (*fixture, *Dispatcher, string) {
	t.Helper()
	f := newFixture(t)
	bin := buildArgvDump(t)
	out := filepath.Join(f.dir, "dump.jsonl")
	f.pol.Notify.Command = append([]string{bin, out}, args...)
	stack, err := exec.New(exec.Options{Role: exec.RoleNotify, Audit: f.audit, NotifyProgram: bin})
	if err != nil {
		t.Fatal(err)
	}
	if err := stack.Missing()[exec.Notify]; err != nil {
		t.Fatal(err)
	}
	return f, f.start(t, stack), out
}

// PROTOCOL#notifications: the argv holds the closed placeholders only; the task's
// text reaches the program as data, on standard input (the message as
// JSON whose values hold only letters, digits and \u escapes) and in the
// environment.
func TestCommandReceiverGetsTextOnlyAsData(t *testing.T) {
	f, d, out := commandFixture(t, "{event}", "{role}", "{task_id}", "{risk_level}", "literal {x}", "-")
	ev := approval()
	ev.Title = "it's $(rm -rf ~); `id` \"quoted\" @{[x]} #{y} } [exec z] { \u00e9\U0001F4E1"
	d.Notify(ev)
	d.Close(context.Background())
	dumps := readDumps(t, out)
	if len(dumps) != 1 {
		t.Fatalf("%d runs, want 1\n%s", len(dumps), f.log.String())
	}
	got := dumps[0]
	ev.Role, ev.Node = "rx", "lab-rx1"
	m := render(ev)
	if want := []string{"approval_needed", "rx", "RX_TEST_001", "YELLOW", "literal {x}", "-"}; !slices.Equal(got.Argv, want) {
		t.Errorf("argv %q, want exactly %q", got.Argv, want)
	}
	var in Message
	if err := json.Unmarshal([]byte(got.Stdin), &in); err != nil {
		t.Fatalf("stdin %q: %v", got.Stdin, err)
	}
	m.Headline, m.Priority, m.Tags = "", 0, ""
	if in != m {
		t.Errorf("stdin decodes to %+v, want %+v", in, m)
	}
	if in.Title != ev.Title {
		t.Errorf("stdin title %q, want %q", in.Title, ev.Title)
	}
	for k, v := range map[string]string{"RFHANDOFF_EVENT": "approval_needed", "RFHANDOFF_ROLE": "rx", "RFHANDOFF_NODE": "lab-rx1",
		"RFHANDOFF_TASK_ID": "RX_TEST_001", "RFHANDOFF_TITLE": ev.Title, "RFHANDOFF_RISK_LEVEL": "YELLOW",
		"RFHANDOFF_TIME": "2026-03-01T12:00:00Z", "RFHANDOFF_MESSAGE": m.Text} {
		if got.Env[k] != v {
			t.Errorf("%s=%q, want %q", k, got.Env[k], v)
		}
	}
	// The run is in the audit log like every subprocess, under its own
	// tool; the argv it records holds no task text.
	es, _ := exec.ReadAuditTail(f.audit.Path(), 0)
	var starts int
	for _, e := range es {
		if e.Event == exec.EventStart && e.Tool == exec.Notify {
			starts++
			if strings.Contains(strings.Join(e.Argv, " "), "quoted") {
				t.Errorf("the audited argv holds the title: %q", e.Argv)
			}
		}
	}
	if starts != 1 {
		t.Errorf("%d audited notify starts, want 1", starts)
	}
}

// A placeholder whose value is not a word is never passed: the delivery
// fails, nothing runs (a TASK_ID is validated long before, so this is
// the last line of defence, not the first).
func TestCommandPlaceholderOutsideItsWordsNotRun(t *testing.T) {
	f, d, out := commandFixture(t, "{task_id}")
	ev := approval()
	ev.TaskID = "X; touch PWNED"
	d.Notify(ev)
	d.Close(context.Background())
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("the command ran with a task ID that is not a word: %v", readDumps(t, out))
	}
	if !strings.Contains(f.log.String(), "not a word") {
		t.Errorf("the failure is not reported:\n%s", f.log.String())
	}
}

// inertJSON is the webhook's object, decoded; in its values no byte but a
// letter, a digit, '\' and the hex digits of an escape.
func TestInertJSON(t *testing.T) {
	ev := approval()
	ev.Title = "a\"b\\c $`@#[]{}()<>|&;'\t\u00a0\u202e\U0001F4E1 ok"
	ev.Detail = "</script> \u2028"
	m := render(ev)
	raw := inertJSON(m)
	var got, want map[string]string
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	web, _ := json.Marshal(m)
	if err := json.Unmarshal(web, &want); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("inert %v\nwebhook %v", got, want)
	}
	if !bytes.HasSuffix(raw, []byte("}\n")) || bytes.Count(raw, []byte("\n")) != 1 {
		t.Errorf("not one line: %q", raw)
	}
	for _, v := range regexp.MustCompile(`:"([^"]*)"`).FindAllSubmatch(raw, -1) {
		if bad := regexp.MustCompile(`[^A-Za-z0-9\\]|\\[^u]`).Find(v[1]); bad != nil {
			t.Errorf("value %q holds %q", v[1], bad)
		}
	}
}

func TestCommandMustBeResolved(t *testing.T) {
	f := newFixture(t)
	f.pol.Notify.Command = []string{"notify-send", "{event}"}
	if _, err := New(Options{Policy: f.pol}); err == nil {
		t.Fatal("a command without a runner was accepted")
	}
	audit := f.audit
	stack, err := exec.New(exec.Options{Role: exec.RoleNotify, Audit: audit, NotifyProgram: "rfhandoff-no-such-notifier"})
	if err != nil {
		t.Fatal(err)
	}
	if stack.Missing()[exec.Notify] == nil {
		t.Fatal("a missing notification program resolved")
	}
	_, err = stack.Run(context.Background(), exec.Cmd{Tool: exec.Notify, Args: []string{"x"}})
	if !errors.Is(err, exec.ErrNotInstalled) {
		t.Fatalf("running an unresolved notifier: %v", err)
	}
}

func TestPreviewCoversEveryEvent(t *testing.T) {
	p := config.Default()
	p.Notify.NtfyURL = "https://ntfy.example.org/lab-rf-7f3k"
	p.Notify.NtfyTokenFile = "ntfy.token"
	p.Notify.Command = []string{"rfhandoff-notify", "{event}", "{task_id}"}
	out := Preview(p, "lab-rx1")
	for _, name := range config.NotifyEvents {
		if !strings.Contains(out, "#   "+name+": rfhandoff "+name+": <rx|main> on lab-rx1") {
			t.Errorf("preview lacks %s:\n%s", name, out)
		}
	}
	if strings.Contains(out, "lab-rf-7f3k") {
		t.Errorf("preview shows the topic:\n%s", out)
	}
	if !strings.Contains(out, `command ["rfhandoff-notify" "approval_needed" "EXAMPLE_TASK_001"], the message on standard input (JSON) and in RFHANDOFF_*`) {
		t.Errorf("preview lacks the substituted command:\n%s", out)
	}
}

// Stats are a receiver's counts of failed deliveries and dropped events.
type Stats struct {
	Receiver        string
	Failed, Dropped int
}

// stats reports each receiver's counts.
func (d *Dispatcher) stats() []Stats {
	if d == nil {
		return nil
	}
	var out []Stats
	for _, w := range d.workers {
		w.mu.Lock()
		out = append(out, Stats{Receiver: w.r.kind, Failed: w.failed, Dropped: int(w.dropped.Load())})
		w.mu.Unlock()
	}
	return out
}
