// Package capture is the RX capture executor of SPEC §8: `rx capture` for
// the approved current task.
//
// Run, in order: re-checks the approval binding (fresh task fetch, the
// approval's SHA-256 equal to the task file's, not completed, RF_TX = NO,
// HARDWARE_ACCESS and RF_RX = YES, ALLOW_PUSH = RX_RESULT_ONLY, the result
// branch present, the state and capture directories ignored by git) under
// the capture lock; takes the hackrf_info inventory (a pinned serial must be
// present; several boards without a pin are refused); requires
// `hackrf_clock -i` to report CLKIN detected; starts the bounded
// `hackrf_transfer -r` (-n = sample rate × planned duration) through the
// RX runner into <capture.dir>/<TASK_ID>/<TASK_ID>.sigmf-data; confirms the
// process is alive and the file grows; publishes READY; watches with a
// progress display; and when the tool ends publishes an honest COMPLETE,
// then writes the quick-look PNG and the SigMF metadata beside the data.
//
// # Two streaming readers, no second pass
//
// The file is read while the tool writes it, from its first byte, by two
// followers, each with its own descriptor and bounded buffers, each byte
// read once by each (from the page cache):
//
//   - the foreground reader hands every chunk to the SHA-256
//     (capture_sha256) and the quick-look analyzer (rf_tx_observed), in
//     parallel goroutines: COMPLETE waits only for these, and when the
//     tool exits only the bytes written since their last read remain;
//   - the background reader feeds the SHA-512, which only the SigMF file
//     needs (core:sha512) and which costs more than both of the others
//     together (about 1.35 CPU-s per GB against 0.56 and 0.4; see
//     BenchmarkConsumers). It never holds the foreground reader back (it
//     has its own buffers), and it yields the CPU to it: it reads only
//     while the foreground reader has caught up with the file, and not at
//     all from the tool's exit until COMPLETE has been published. When the
//     tool writes faster than the hashes keep up (HACKRF_SIM=fast), it
//     therefore falls behind and finishes after COMPLETE; the SigMF
//     metadata is written when it is done, just before Run returns.
//
// Only when a reader did not see exactly the file's bytes (a read error,
// the file changed under it) is the file hashed again, for that hash.
//
// # Decisions
//
//   - capture_duration_s is the signal the file holds, samples ÷ sample
//     rate (size_bytes ÷ 2 ÷ sample_rate_hz), not the process's wall time:
//     that is what a consumer of the data needs, and the wall-clock span
//     is capture_ended_at − capture_started_at anyway.
//   - capture_started_at is when hackrf_transfer was started;
//     capture_ended_at when its exit was collected. The SigMF core:datetime
//     (and the quick-look's start) is the first sample's time instead,
//     estimated from the file's growth (firstsample.go).
//   - Firmware too old for `hackrf_clock -i` (USB API below 1.06) refuses
//     the capture as a *ClockError naming the version hackrf_info read;
//     a firmware update is a RED task of its own, never part of a capture.
//   - common_clock_verified in COMPLETE is true only when CLKIN was
//     detected both before the capture and after it. A failing second
//     `hackrf_clock -i` (a device gone with exit1) reads as NOT_DETECTED,
//     with the tool's error in RX_RESULT.md's notes: the receiver never
//     claims a clock it could not see.
//   - A stall is the file not growing for Options.StallAfter while the
//     process lives (the tool's own "Couldn't transfer any bytes for one
//     second." counts too); the tool is interrupted with SIGINT, killed
//     only after Options.Grace.
//   - READY is published with a context that a signal does not cancel, so
//     Ctrl-C can never tear a push in half; the capture is interrupted
//     right after and COMPLETE follows.
//   - If READY cannot be published the capture is interrupted. When the
//     publisher refused in its checks (nothing reached git) nothing at all
//     is published. When it failed later (clone, commit or push), a READY
//     may have landed, so an honest COMPLETE is published to supersede it:
//     a READY is never left standing for a capture that is not running.
//   - A capture that never became READY is void: its data file is deleted
//     (captures are gigabytes; nothing refers to it) so the task can be
//     run again. Otherwise an existing capture of the task is never
//     overwritten: the data file is created exclusively before the tool
//     starts.
//   - COMPLETE is written beside the capture as RX_RESULT.json as well, so
//     a COMPLETE that could not be published (after a few retries) can be
//     published later with `rx publish-result`.
//   - The task is not marked completed: that stays the operator's
//     `rx mark-completed`, after looking at the result.
//
// # A killed rx capture
//
// SIGINT and SIGTERM are handled (above), SIGKILL, the OOM killer or a
// crash are not: nothing of rfhandoff runs after them. Two things keep
// such a capture from staying half-published.
//
//   - hackrf_transfer gets SIGINT from the kernel when rfhandoff dies (the
//     runner sets Pdeathsig on Linux, exec/spawn_linux.go): it ends as on
//     Ctrl-C instead of recording on as an orphan.
//   - The capture is recorded in the RX state (capture_in_progress,
//     record.go) from just before READY is published until COMPLETE is:
//     READY's facts, the board, the data file, both pids, whether READY's
//     publish had returned, and, once written, the SHA-256 and notes of
//     the COMPLETE about to be published. Writing it goes through the
//     state lock, beside a running rx watch; if it cannot be written,
//     nothing is published and the capture is stopped.
//
// The next `rx capture` (any task, before it does anything else) and `rx
// watch` (as it starts) take the capture lock, which proves the recorded
// rx capture is gone, and recover (recover.go): wait up to Grace for the
// recorded hackrf_transfer to end (checked by /proc/<pid>/cmdline: that
// tool writing that file, so a reused pid is never signalled), then SIGINT
// it, then SIGKILL it; one that survives that is an error, since its file
// could still change. Then publish COMPLETE through the same publisher:
//
//   - the COMPLETE the killed run had written beside the capture, bytes
//     and notes as they were, when the record names it and the file is
//     unchanged (the run was killed while publishing it, or its publish
//     failed);
//   - otherwise one built from the record and the file: size and SHA-256
//     read from the file after the fact (the streaming hash died with
//     rfhandoff: the one second pass over a capture, and only here),
//     capture_duration_s from the size, capture_exit_code -1 (nobody was
//     left to collect the exit status), overruns and dropped_frames null,
//     clkin_after from a fresh `hackrf_clock -i` on the recorded board
//     (NOT_DETECTED when it fails), rf_tx_observed UNKNOWN,
//     common_clock_verified false (nobody watched the clock meanwhile),
//     capture_ended_at the file's modification time. RX_RESULT.md says all
//     of this. It is written beside the capture and into the record before
//     it is published, so a recovery that is itself cut short publishes
//     the same bytes next time: the publisher's no-op, never a second,
//     different COMPLETE. A record whose READY publish had not returned
//     gets its COMPLETE all the same: READY may have landed.
//
// The record is cleared only after the publisher succeeded. When it
// refuses (the task, its approval or the checkout's HEAD changed since),
// the record is kept and `rx capture` starts nothing until a person has
// looked: `rx mark-completed TASK_ID` drops it (not while a capture holds
// the lock). Any other failure is tried again by the next run. `rx
// publish-result` of the saved COMPLETE clears it too, and `rx status`
// shows it. No SigMF file or quick-look PNG is written for a recovered
// capture (`capture plot` draws one from the data).
//
// # Exit status (see cmd_rx_capture.go)
//
// 0 only when COMPLETE was published for a capture that ended normally
// (all -n samples written). 130 when a signal (SIGINT, SIGTERM)
// interrupted it; COMPLETE was published if READY had been. 1 for every
// other failure, a recovery that failed included (*RecoveryError); the
// message says whether COMPLETE was published.
package capture
