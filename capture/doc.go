// Package capture is the RX capture executor of PROTOCOL#capture: `rx capture`
// for the approved current task. The order of its steps, what it refuses,
// what READY and COMPLETE hold and how a killed capture is recovered are
// all in PROTOCOL#result and PROTOCOL#capture; this file says how the package does it.
//
// Run re-checks the task under the capture lock, then drives hackrfcli
// through the RX runner. The data file,
// <capture.dir>/<TASK_ID>/<TASK_ID>.sigmf-data, is created exclusively
// before the tool starts, so an existing capture is never overwritten.
// The tool runs in its own process group. READY needs two sizes
// Options.ConfirmGap (0.1 s) apart; a file that stops growing for
// Options.StallAfter (5 s), or the tool's stall message, gets SIGINT and a
// kill Options.Grace (10 s) later. The SigMF metadata is written before
// COMPLETE (a node's COMPLETE carries its digest), the PNG after it.
//
// READY's confirmation: the first size is read as soon as the file holds
// a byte, looked for every 5 ms; meanwhile the checkout's HEAD (for
// source_head) and READY's publish reads (the task, HEAD, check 6's
// clone) are started, each looked at only at its check.
//
// # Two streaming readers, no second pass
//
// The file is read while the tool writes it, from its first byte, by two
// followers, each with its own descriptor and bounded buffers, each byte
// read once by each (from the page cache):
//
//   - the foreground reader hands every chunk to the SHA-256
//     (capture_sha256) and the quick-look analyzer (rf_tx_observed), in
//     parallel goroutines; when the tool exits only the bytes written
//     since their last read remain;
//   - the background reader feeds the SHA-512, which only the SigMF file
//     needs (core:sha512) and which costs more than both of the others
//     together (about 1.35 CPU-s per GB against 0.56 and 0.4; see
//     BenchmarkConsumers). It has its own buffers and reads only while the
//     foreground reader has caught up with the file. From the tool's exit
//     all readers drain at once; the SigMF metadata and then COMPLETE wait
//     for all of them, so a capture written faster than the hashes keep up
//     (HACKRF_SIM=fast) publishes COMPLETE only when the SHA-512 is done.
//
// Only when a reader did not see exactly the file's bytes (a read error,
// the file changed under it) is the file hashed again, for that hash.
//
// # A scheduled capture
//
// schedule.go times the start by the host clock less the offset chrony
// reports: HOST_CLOCK aims the tool's first sample at START_AT; PPS aims
// its arming (-H) sync.pps_arm_margin_s before, and without a clock
// report takes half that margin as the clock's bound. Either starts the
// tool early by its start-up, which a rehearsal (rehearse.go: four blocks
// to its own file, no -H) measures on this host 5 s before, under the
// load the start will meet: to the first sample (HOST_CLOCK) or to the
// tool's "Stop with Ctrl-C" (PPS), which it prints once hackrf_start_rx
// has returned and the board is armed. The capture keeps that line's time
// too (startLine): data within a block plus ignoredSlack of it mean a
// board that did not wait for an edge, wherever they fall in the second;
// the lead check before that uses expectedLatency (150 ms). A scheduled
// capture's git reads for READY wait until the capture is confirmed, so
// nothing the rehearsal did not see competes with the start. The first
// sample's estimate comes from the file's growth (firstsample.go): never
// early, at most one USB block late; judgeAlignment (align.go) turns it
// into the result's alignment (PROTOCOL#capture).
//
// # The simulator
//
// simulator.go keeps rfhandoff's HackRF simulator from passing for a
// HackRF (PROTOCOL#simulator): the runner's resolved tool paths are compared with
// the running executable before any tool runs, hackrf_info's answer is read
// for the marker next, and hackrf_transfer's first line before READY. Each
// finding is a capture_simulator decision line; without [tools]
// allow_simulator it is a refusal (before READY, so the capture is void).
// With it, READY and COMPLETE say "simulated": true, capture_in_progress
// keeps it for a recovery, and the SigMF metadata and the quick-look say so.
//
// # A killed rx capture
//
// SIGINT and SIGTERM are handled; SIGHUP and a closed stdout or stderr
// are outlived by the command (terminal_loss_unix.go). SIGKILL, the OOM
// killer or a crash are not: on Linux hackrf_transfer then gets SIGINT
// from the kernel (Pdeathsig, exec/spawn_linux.go) and ends as on Ctrl-C
// instead of recording on as an orphan.
//
// The capture_in_progress record (record.go) holds READY's facts, the
// board, the data file, both pids, whether READY's publish had returned,
// and, once written, the SHA-256 and notes of the COMPLETE about to be
// published. It is written through the state lock, beside a running
// rx watch. Recovery (recover.go) takes the capture lock first: holding it
// proves the recorded rx capture is gone. It waits Grace (10 s) for the
// recorded tool, then sends SIGINT and, Grace later, SIGKILL; the pid
// counts only with its recorded start time (exec.ProcessStart) and, on
// Linux, command line. The COMPLETE is written into the record before it
// is published, so a retry publishes the same bytes. A COMPLETE built
// after the fact reads size, SHA-256, SHA-512 and the quick-look analysis
// from the file in one pass, the one second pass over a capture: the
// streaming readers died with rfhandoff. The SigMF metadata and PNG follow
// the COMPLETE as for a finished capture.
//
// A failed recovery names rx mark-completed. ErrRunning and ErrInterrupted
// match with errors.Is; exit statuses are PROTOCOL#command-line
// (cmd_rx_capture.go maps them).
package capture
