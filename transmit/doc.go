// Package transmit is `tx execute` (PROTOCOL#main-pc steps 1–5): the
// separate RED action that consumes one authorization record written by
// package txwatch, and the action it then runs.
//
// Every step is checked before the next: the record, the quick checks,
// the exact phrase, the re-check against a fresh fetch, the record marked
// used under the list's lock; only then the action. Each step's verdict is
// a decision line of the audit chain, written before it takes effect. A
// provisional outcome is written before the tool starts; rf_tx is 0 only
// when no hackrf_transfer process was ever started.
package transmit
