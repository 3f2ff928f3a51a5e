// Package exec is the one place in rfhandoff that starts processes.
//
// Every external program (git, hackrf_info, hackrf_transfer, hackrf_clock,
// the clock query timedatectl or w32tm) runs through a Runner built by New:
// an audit log wraps an allowlist which wraps the os/exec implementation. No other package imports os/exec.
//
// What it offers: New, which builds the Stack (audit log around allowlist
// around the OS runner) that every command runs programs through with Run or
// Start; Cmd and Result; the audit log (OpenAuditLog, Entry, VerifyAuditLog),
// which also keeps notification deliveries (RecordDelivery) and people's
// decisions (RecordDecision, Decision);
// tool resolution; the built child environment; process start times
// (ProcessStart); and the errors callers branch on: *ExitError, *ChainError,
// ErrDenied and ErrNotInstalled (a command that never started).
package exec
