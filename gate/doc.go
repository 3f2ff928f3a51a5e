// Package gate holds the protocol's safety rules as pure functions: the risk
// levels and their derivation from a task's flags, and the approval each
// level needs (PROTOCOL#task-file). It does no IO, so every rule can be
// tested by table and reused by both sides.
package gate
