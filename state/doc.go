// Package state is rfhandoff's protocol state on the local disk
// (PROTOCOL#rx-state): the RX and TX state files, read strictly (a corrupt file
// is an error naming it, never a silent reset) and written through
// localfile's crash-safe primitives, with one watcher per side through a
// lock file (RXLockFile, TXLockFile).
//
// # The files
//
// rx_agent_state.json: last_seen_task_id, last_seen_task_commit,
// last_completed_task_id, last_approved_task_id, deferred_task_id,
// running, watcher_pid, approval {task_id, task_sha256, commit,
// approved_at, signer {principal, fingerprint}, capture {frequency_hz,
// sample_rate_hz, lna_gain_db, vga_gain_db, amp, antenna_power,
// planned_duration_s, dir, free_margin_bytes}}, the completed IDs, the
// digest seen per task ID, capture_in_progress (package capture),
// notified_task_sha256, accepted_task {commit, task_sha256} and
// replaced_task_ids. tx_agent_state.json: the shown digests,
// completed_tasks, tasks_over_unread, last_result_commit and node_looks.
// tx_records.json: {"records": {"<record file name>": {"sha256",
// "issued_at", "used_at", "used_pid"}}}, changed under tx_records.lock.
// tx_nodes.json: task_id, seen_at, and per node node, branch, commit,
// state, detail. Locks: rx_agent.lock (rx watch for its life, rx check and
// rx approve while they run), rx_state.lock (each read-modify-write),
// rx_capture.lock (one capture). A temporary file a killed writer left is
// removed by the next holder of the file's lock before it reads
// (localfile.CleanTemps).
//
// What it offers: ReadJSON and WriteJSON; SaveRX and SaveTX with the RX
// and TX state types; RXStore and TXRecordStore (the RX state and the
// MAIN side's list of issued authorization records, each changed under a
// lock held for milliseconds); RX.ApprovalOf (whether an approval covers
// a task's bytes). The capture plan an approval binds is captureplan's.
package state
