package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestValidateNotify(t *testing.T) {
	tests := []struct {
		name string
		mut  func(*Notify)
		bad  string // "" means valid
	}{
		{"https ntfy", func(n *Notify) { n.NtfyURL = "https://ntfy.example.org/lab-rf-7f3k" }, ""},
		{"http loopback", func(n *Notify) { n.WebhookURL = "http://127.0.0.1:8080/hook" }, ""},
		{"http localhost", func(n *Notify) { n.WebhookURL = "http://localhost/hook" }, ""},
		{"http lan refused", func(n *Notify) { n.NtfyURL = "http://ntfy.lab/topic" }, "notify.ntfy_url"},
		{"http lan allowed", func(n *Notify) { n.NtfyURL = "http://ntfy.lab/topic"; n.AllowHTTPHosts = []string{"ntfy.lab"} }, ""},
		{"allow host with port", func(n *Notify) { n.AllowHTTPHosts = []string{"ntfy.lab:80"} }, "notify.allow_http_hosts"},
		{"credentials in URL", func(n *Notify) { n.NtfyURL = "https://u:p@ntfy.example.org/t" }, "notify.ntfy_url"},
		{"token in query", func(n *Notify) { n.WebhookURL = "https://hooks.example.org/x?token=abc" }, "notify.webhook_url"},
		{"other scheme", func(n *Notify) { n.WebhookURL = "ftp://hooks.example.org/x" }, "notify.webhook_url"},
		{"no host", func(n *Notify) { n.WebhookURL = "https:///x" }, "notify.webhook_url"},
		{"token without ntfy", func(n *Notify) { n.NtfyTokenFile = "ntfy.token" }, "notify.ntfy_token_file"},
		{"secret without webhook", func(n *Notify) { n.WebhookSecretFile = "hook.secret" }, "notify.webhook_secret_file"},
		{"command", func(n *Notify) {
			n.Command = []string{"rfhandoff-notify", "{event}", "{role}", "{task_id}", "{risk_level}", "-"}
		}, ""},
		{"command a shell", func(n *Notify) { n.Command = []string{"sh", "/etc/rfhandoff/notify.sh", "{event}"} }, ""},
		{"command literal braces", func(n *Notify) { n.Command = []string{"notify-hook", "{x}", "{}"} }, ""},
		{"command spliced placeholder", func(n *Notify) { n.Command = []string{"notify-send", "task {task_id}"} }, "notify.command[1]"},
		{"command program placeholder", func(n *Notify) { n.Command = []string{"{event}"} }, "notify.command"},
		// Task text is never an argument, whole or spliced, whatever the program.
		{"command title", func(n *Notify) { n.Command = []string{"python3.11", "-c", "{title}"} }, "notify.command[2]"},
		{"command message", func(n *Notify) { n.Command = []string{"notify-send", "rfhandoff", "{message}"} }, "notify.command[2]"},
		{"command spliced title", func(n *Notify) { n.Command = []string{"awk", "BEGIN{print \"{title}\"}"} }, "notify.command[1]"},
		{"command title program", func(n *Notify) { n.Command = []string{"{title}"} }, "notify.command[0]"},
		{"command empty program", func(n *Notify) { n.Command = []string{""} }, "notify.command"},
		{"command control char", func(n *Notify) { n.Command = []string{"notify-send", "a\x1b[2J"} }, "notify.command[1]"},
		{"unknown event", func(n *Notify) { n.Events = []string{"approval_neded"} }, "notify.events"},
		{"event twice", func(n *Notify) { n.Events = []string{"remote_back", "remote_back"} }, "notify.events"},
		{"no events", func(n *Notify) { n.Events = []string{} }, ""},
		{"timeout 30s", func(n *Notify) { n.Timeout = Duration{30 * time.Second} }, ""},
		{"timeout 31s", func(n *Notify) { n.Timeout = Duration{31 * time.Second} }, "notify.timeout"},
		{"timeout zero", func(n *Notify) { n.Timeout = Duration{} }, "notify.timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Default()
			tc.mut(&p.Notify)
			err := p.Validate()
			if tc.bad == "" {
				if err != nil {
					t.Fatalf("unexpected: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.bad+" = ") {
				t.Fatalf("want a problem naming %s, got %v", tc.bad, err)
			}
		})
	}
}

func TestNotifySecretFilesReportedByKeyAndFileNeverContent(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "rfhandoff.toml")
	if err := os.WriteFile(filepath.Join(dir, "multi.secret"), []byte("whsec_SECRET\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	body := `[repo]
path = "` + filepath.ToSlash(dir) + `"
[notify]
ntfy_url = "https://ntfy.example.org/t"
ntfy_token_file = "missing.token"
webhook_url = "https://hooks.example.org/x"
webhook_secret_file = "multi.secret"
`
	if err := os.WriteFile(policy, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(policy)
	if err == nil {
		t.Fatal("missing and malformed secret files accepted")
	}
	msg := err.Error()
	for _, want := range []string{"notify.ntfy_token_file", "missing.token", "notify.webhook_secret_file", "multi.secret", "one line"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %v", want, msg)
		}
	}
	if strings.Contains(msg, "whsec_SECRET") {
		t.Errorf("error shows the secret: %v", msg)
	}
	if err := os.WriteFile(filepath.Join(dir, "missing.token"), []byte(" tk_1 \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "multi.secret"), []byte("whsec_SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(policy)
	if err != nil {
		t.Fatal(err)
	}
	tok, sec, err := p.ReadNotifySecrets()
	if err != nil || tok != "tk_1" || sec != "whsec_SECRET" {
		t.Fatalf("secrets %q %q %v", tok, sec, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "multi.secret"), []byte(" \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tok, sec, err = p.ReadNotifySecrets()
	if tok != "tk_1" || sec != "" || err == nil || !strings.Contains(err.Error(), "notify.webhook_secret_file = \"multi.secret\": file ") || !strings.HasSuffix(err.Error(), ": is empty") {
		t.Fatalf("empty secret file: %q %q %v", tok, sec, err)
	}
}

func TestNotifyEnabled(t *testing.T) {
	p := Default()
	if p.NotifyEnabled(EventApprovalNeeded) {
		t.Error("enabled without a receiver")
	}
	p.Notify.WebhookURL = "https://hooks.example.org/x"
	if !p.NotifyEnabled(EventApprovalNeeded) {
		t.Error("default events do not include approval_needed")
	}
	p.Notify.Events = []string{EventRemoteBack}
	if p.NotifyEnabled(EventApprovalNeeded) || !p.NotifyEnabled(EventRemoteBack) {
		t.Error("notify.events not applied")
	}
}

// PROTOCOL#notifications: {title} and {message} are refused in every argument at
// once, each named, with where the text goes instead; the program does
// not matter (there is no list of interpreters).
func TestNotifyTaskTextNeverAnArgument(t *testing.T) {
	for _, program := range []string{"notify-send", "python3.11", "perl5.36.0", "tclsh", "find", "nice", "/opt/lab/bin/hook"} {
		p := Default()
		p.Notify.Command = []string{program, "-c", "{title}", "x{message}y", "{event}"}
		err := p.Validate()
		if err == nil {
			t.Fatalf("%s: accepted", program)
		}
		msg := err.Error()
		for _, want := range []string{`notify.command[2] = "{title}"`, `notify.command[3] = "x{message}y"`, "standard input", "RFHANDOFF_MESSAGE"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %v lacks %q", program, err, want)
			}
		}
		if strings.Contains(msg, "notify.command[4]") {
			t.Errorf("%s: {event} refused: %v", program, err)
		}
	}
}
