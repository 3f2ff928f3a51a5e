// Package resultfetch reads the result branch for the MAIN side, as
// taskfetch reads the task branch: one narrow fetch, RX_RESULT.json read
// bounded at one commit, the tip checked to speak for it (PROTOCOL#trust),
// decoded strictly, and every result since the last look read (Look), so
// that a CAPTURE_COMPLETE between two looks still ends its task.
//
// What it offers: Source (a branch: repo.result_branch or a [[nodes]]
// one), Snapshot, Look, and the refusals of a READY for a task that is
// over (TaskOver, CompletedError). tx watch, tx execute and task new
// (which reads the used TASK_IDs) use it.
package resultfetch
