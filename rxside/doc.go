// Package rxside is the RX laptop's side of the protocol up to approval
// (PROTOCOL#task-file, PROTOCOL#rx-state, PROTOCOL#subprocesses, PROTOCOL#command-line): the preconditions every state-touching
// command checks, the runtime state under its locks, the one-shot check,
// the polling watcher with backoff, the approval flow bound to the task's
// exact bytes, and the ManualExecutor that prepares an approved task in
// the outbox.
//
// Locks (PROTOCOL#rx-state): rx_agent.lock (state.RXLockFile) and
// rx_state.lock live beside the state file, never on it, as it is replaced
// by rename. The watcher re-reads the state before each decision, so a
// task marked completed meanwhile is not offered.
//
// Polling goes into the RX mirror (PROTOCOL#mirror). A rewritten task
// branch (*gitcli.ForcePushError) is logged once and stays refused until a
// person re-anchors (OPERATIONS#rx-side); a rewrite that reached the
// tracking ref some other way (a plain `git fetch` in the mirror) is seen
// at the next resolve and stays refused until a watcher restart
// re-anchors.
//
// The approval prompt shows the effective capture (config.Policy.
// CapturePlan): frequency, rate and duration, marked where the task set
// them; gains, amp, antenna power (never on); the bytes, capture.dir and
// its free space, marked NOT ENOUGH below the bytes plus
// capture.free_margin_mb; a START_AT in UTC and local time. The approval
// binds the plan: an approved task whose plan has changed is offered again.
// Watcher.EachPoll is where rx watch recovers a capture whose rx capture
// died (package capture, which this package does not import).
//
// Nothing here runs an agent, opens SDR hardware, commits or pushes.
//
// What it offers: Open, a Session on the RX side's lock, mirror and state,
// whose Check is `rx check` (its Decision the pure judgement of a polled
// task); NewWatcher for `rx watch`; and NewManualExecutor, what an approval runs.
package rxside
