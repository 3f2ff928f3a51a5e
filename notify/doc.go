// Package notify tells a person that they are needed (PROTOCOL#notifications): it
// renders an event into one short message and delivers it to the ntfy
// topic, the webhook and the command [notify] names, from a bounded queue
// beside the watcher, so a slow or failing receiver never holds up a
// prompt, a capture or a publish. A message carries no link or code that
// approves. The command gets the task's text only as data, never as an
// argument: on its standard input (inertJSON) and in RFHANDOFF_* variables.
//
// ntfy: the message is the body; headers Title (RFC 2047 when not
// ASCII), Priority (5 authorization_needed; 4 approval_needed,
// capture_failed, remote_unreachable; else 3), Tags: rfhandoff,<event>,
// and Authorization: Bearer <the ntfy_token_file's token>.
//
// Delivery: at most 32 events queued per receiver (more are dropped and
// counted); up to three attempts, each within [notify] timeout and all
// within twice that, pausing 250 ms then 500 ms; a 2xx answer or a
// command's exit 0 is delivered, a 4xx other than 429 is not retried. A
// failing receiver is reported once on stderr, later failures counted, its
// recovery reported. When the command ends, what is queued gets at most
// twice timeout and one second more.
package notify
