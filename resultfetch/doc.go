// Package resultfetch reads the result branch for the MAIN side, as
// taskfetch reads the task branch: one narrow fetch, RX_RESULT.json read
// bounded at one commit, the tip checked to speak for it (PROTOCOL#trust),
// decoded strictly, and every result since the last look read (Look), so
// that a CAPTURE_COMPLETE between two looks still ends its task.
package resultfetch
