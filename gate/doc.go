// Package gate holds the protocol's safety rules as pure functions: the risk
// levels and their derivation from a task's flags, the approval each level
// needs, and exact phrase matching (PROTOCOL#task-file). It does no IO, so every rule can
// be tested by table and reused by both the RX and the MAIN side.
//
// What it offers: Derive and Effective (a task's level), RequiredPhrase (the
// approval), CheckReady and CheckReadyFor (a READY result on
// the MAIN side) and CheckTXParams (the TX policy); ErrLevelTooLow matches
// Effective's refusal of a declared level under the derived one.
package gate
