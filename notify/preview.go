package notify

import (
	"fmt"
	"strings"
	"time"

	"rfhandoff/config"
)

// Preview is config check's account of what each event would send, rendered
// as a real one is. It names hosts, never a token, secret or topic path.
func Preview(p config.Policy, node string) string {
	n := p.Notify
	var b strings.Builder
	var to []string
	if n.NtfyURL != "" {
		to = append(to, "ntfy at "+hostOf(n.NtfyURL)+when(n.NtfyTokenFile != "", " (bearer token from notify.ntfy_token_file)"))
	}
	if n.WebhookURL != "" {
		to = append(to, "webhook at "+hostOf(n.WebhookURL)+when(n.WebhookSecretFile != "", " (signed with notify.webhook_secret_file)"))
	}
	if len(n.Command) > 0 {
		to = append(to, "command "+n.Command[0])
	}
	if len(to) == 0 {
		return "# notifications: none ([notify] names no receiver)\n"
	}
	fmt.Fprintf(&b, "# notifications to %s, timeout %s\n", strings.Join(to, ", "), n.Timeout.Duration)
	ex := examples()
	for _, name := range n.Events {
		ev := ex[name]
		ev.Role, ev.Node, ev.Time = "<rx|main>", node, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		m := render(ev)
		fmt.Fprintf(&b, "#   %s: %s\n", name, m.Text)
		if n.NtfyURL != "" {
			fmt.Fprintf(&b, "#     ntfy Title %q, Priority %d, Tags %q\n", m.Headline, m.Priority, m.Tags)
		}
		if len(n.Command) > 0 {
			args, _ := argv(n.Command[1:], m, false)
			fmt.Fprintf(&b, "#     command %q, the message on standard input (JSON) and in RFHANDOFF_*\n", append([]string{n.Command[0]}, args...))
		}
	}
	return b.String()
}

func when(on bool, s string) string {
	if on {
		return s
	}
	return ""
}
