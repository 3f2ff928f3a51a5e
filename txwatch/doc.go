// Package txwatch is the MAIN PC's authorization side of the protocol
// (PROTOCOL#main-pc): the tx watch loop that turns a READY result into a
// single-use authorization record after the exact phrase AUTHORIZE RF TX,
// the records and their list, and the re-check that package transmit's
// tx execute runs before it consumes one.
//
// How it implements the rules:
//
//   - The shown digests are kept in <state_dir>/tx_agent_state.json. A
//     failed state write shows nothing; a result shown to a watcher killed
//     at the prompt is not offered again after a restart.
//   - The prompt expires at txgate.ReadyUntil(result, policy, 0), a record
//     at txgate.ReadyUntil(result, policy, duration_s): the last moments
//     the re-checks can still pass. A record that would expire at once is
//     not written.
//   - Each look at a moved result branch reads every result since the
//     last look (resultfetch.Look) before the tip is judged, so a COMPLETE
//     between two polls ends its task; tx execute reads since its
//     record's commit.
//   - A record is usable only as tx watch issued it: the authorization
//     list (state.TXRecordsFile) holds the SHA-256 of its bytes, and its
//     use, written under the list's own lock before anything starts.
//   - Every offer, phrase, end, record and tx execute step is a decision
//     line of the audit chain (PROTOCOL#audit-log), written before what it
//     decides takes effect.
//   - tx execute without a RECORD takes the one unused record (Store.Pick);
//     a refusal ends with what the operator can do now (WhatNow, WhatNowSetup).
//
// What it offers: Watcher (`tx watch`), Store (records, the authorization
// list, outcomes), CheckRecord (tx execute's re-check), the fetch hint the
// two share, and ReadStatus (`tx status`).
package txwatch
