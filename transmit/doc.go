// Package transmit is `tx execute` (PROTOCOL#main-pc steps 1–5): the
// separate RED action that consumes one authorization record written by
// package txwatch, and the action it then runs.
//
// How it implements the rules:
//
//   - Every step is checked before the next: the record as txwatch's Store
//     reads it, the quick checks, the exact phrase at a terminal, the
//     re-check against a fresh fetch (txwatch.CheckRecord), the record
//     marked used under the list's lock; only then the action.
//   - Each step's verdict, the phrase, the action's start and its outcome
//     are decision lines of the audit chain (txwatch.Decide), written
//     before what they decide takes effect.
//   - rf_tx_started in an outcome says the executor handed the
//     transmission to the tool; rf_tx is 0 only when no hackrf_transfer
//     process was ever started. A provisional outcome is written before
//     the tool starts.
//
// What it offers: Executor (`tx execute`) and the Step names its refusals
// use.
package transmit
