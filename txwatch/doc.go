// Package txwatch is the MAIN PC's side of the protocol (SPEC §7): the
// tx watch loop that turns a READY result into a single-use authorization
// record after the exact phrase AUTHORIZE RF TX, and the tx execute action
// that consumes one record.
//
// Decisions this package makes where the spec leaves room:
//
//   - A result's digest (SHA-256 of the exact RX_RESULT.json bytes) is
//     written to .local/tx_agent_state.json as shown before the result is
//     reported or offered. A result is therefore never shown twice, even
//     when the watcher is killed at the prompt; the price is that such a
//     result is not offered again after a restart (the receiver must
//     publish a new one). A state write that fails shows nothing.
//   - The watcher's prompt expires at gate.ReadyUntil(result, policy, 0):
//     the earlier of "remaining capture time falls under min_remaining_s"
//     and "the publication becomes older than max_publication_age_s", the
//     two moments after which the re-check after the phrase must fail.
//   - A record's expires_at is gate.ReadyUntil(result, policy, duration_s):
//     the last moment tx execute's re-check, which needs capture time for
//     the whole transmission plus min_remaining_s and a publication no
//     older than max_publication_age_s, can still pass. A record that
//     would expire at once is not written (reported as blocked).
//   - Records live in <state_dir>/tx_authorizations/ named
//     <TASK_ID>-<first 12 hex of the digest>.json; a record whose content
//     does not match its name is refused, so a copy under another name
//     cannot be used a second time. Beside it tx execute writes
//     <TASK_ID>-<12 hex>.used (the O_EXCL marker) and
//     <TASK_ID>-<12 hex>.outcome.json.
//   - tx execute refuses a record whose TX parameters differ from the
//     policy in force: the operator authorized what was shown.
//   - Outcome rf_tx: 0 for fake; for hackrf_transfer 1 as soon as a
//     hackrf_transfer process was started, whatever its exit code (a run
//     that failed half-way may have sent samples), 0 only when no process
//     was ever started. rf_tx_started says the executor handed the
//     transmission to the tool. tx execute exits non-zero when the tool
//     failed, with the outcome written.
package txwatch
