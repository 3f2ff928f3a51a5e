// Package rxwatch is the RX laptop's side of the protocol up to approval
// (SPEC §3, §4, §10, §13): the preconditions every state-touching command
// checks, the runtime state under its locks, the one-shot check, the
// polling watcher with backoff, the approval flow bound to the task's
// exact bytes, and the ManualExecutor that prepares an approved task in
// the outbox.
//
// Locks. Two lock files live in the state directory, beside the state file
// (never the state file itself, which is replaced by rename):
//
//   - rx_agent.lock (state.RXLockFile) is held by `rx watch` for its whole
//     life and by `rx check` and `rx approve` while they run. Those three
//     fetch the task branch and prompt; two of them at once would race on
//     the tracking ref (a change fetched by one is invisible to the other's
//     next fetch) and on the terminal. So `rx check` and `rx approve` refuse
//     while a watcher runs: the watcher does their job itself.
//   - rx_state.lock is taken briefly around every read-modify-write of
//     rx_agent_state.json, by everyone who writes it (the three above and
//     `rx mark-completed`, which may run beside a watcher). The watcher
//     re-reads the state file before each decision, so a task marked
//     completed meanwhile is not offered.
//
// Polling. One narrow fetch per poll into the RX mirror (package mirror:
// blobless, so the media others push to the branch stays on the server;
// refspec without '+'); the tracking
// ref is resolved only when fetch reported an update (gitcli's
// FetchBranchUpdated), on the first poll, after a failure and every
// DefaultResync, so an idle poll is one subprocess. Failures back off
// exponentially with jitter up to poll.max_backoff, are logged once per
// distinct error, and "remote reachable again" is logged on recovery.
//
// Force-push. A rewritten task branch makes the narrow fetch fail
// (*gitcli.ForcePushError): the watcher logs it once, keeps polling and
// stays refused. To re-anchor, a person checks the rewritten branch on the
// remote and then removes the RX mirror (<state_dir>/mirror-rx.git, where
// the tracking ref lives; the checkout is not fetched into):
//
//	rm -rf .local/mirror-rx.git
//
// rfhandoff rebuilds it, and the next poll accepts the new history (its
// tasks are still checked: EXPECTED_HEAD ancestry, the digest binding). If a rewrite reached the
// tracking ref some other way (a plain `git fetch` by someone, which uses
// a forced refspec), the watcher notices at its next resolve
// (*RewoundError) and stays refused until it is restarted: the restart is
// the re-anchor.
//
// Deferral. [D] records deferred_task_id; that watcher does not ask again.
// `rx approve` approves a deferred task, and a new watcher offers it again.
//
// Nothing here runs an agent, opens SDR hardware, commits or pushes.
package rxwatch
