// Package result is the strict RX_RESULT.json contract (PROTOCOL#result): Go types,
// a decoder that rejects everything encoding/json would silently accept
// (duplicate or case-variant keys, 1.0 for an integer, invalid UTF-8,
// trailing data), the READY/COMPLETE rules, a canonical encoder, the
// Markdown rendering, and a JSON Schema for tools outside Go.
//
// A scheduled task's result (schema_version 3) carries an Alignment, bound
// to the task's START_AT and SYNC_MODE by Options.
package result
