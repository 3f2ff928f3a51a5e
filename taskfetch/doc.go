// Package taskfetch reads the current task from the task branch the way
// PROTOCOL#task-file and PROTOCOL#subprocesses require: one narrow fetch, the commit resolved once, and
// only that ID used afterwards (ancestry check, size check, read, parse).
// The RX side (check, watch, approve, publish, capture) and the MAIN side
// (which compares a result's TASK_ID with it) share it. They read through
// their side's mirror (package mirror, PROTOCOL#mirror), never the checkout.
//
// What it offers: Fetch and FetchSince (fetch, then read the tip's task),
// ReadAt and ReadSince (read a given commit), returning a Current; KeyValid,
// the present-time key window check, and ReadCert, which reads the
// certificate a signature was made with for it; TrackingRef; ErrNoTask (no
// task file yet), ErrRefusedContent (EXPECTED_HEAD off the branch, or an old task brought
// back, however its signed commit was re-wrapped).
package taskfetch
