// Package strictjson walks a JSON text token by token for the strict
// readers (RX_RESULT.json, authorization records, state files), because
// encoding/json would fold key case, keep only the last of duplicate keys,
// ignore null and read 1.0 into an int: a strict reader must refuse each.
//
// Parse is the one strict reader they all use (results, authorization
// records, state files, and the publisher's early look at task_id): one
// JSON object read into a tree of Nodes, values as written (numbers keep
// their literal text), every occurrence of every key in first-seen order,
// containers below a level skipped with their raw text, a depth bound,
// "exactly one value, then only whitespace", and typed errors that carry
// byte offsets. What differs between readers on purpose is a Shape (how
// much to keep, how deep to allow, whether trailing data is the reader's
// business) and how each words the errors.
//
// What it offers: Parse with a Shape, returning a tree of Nodes (and Value,
// a scalar as written); and the typed errors with their byte offsets. The
// token reader below Parse is the package's own.
package strictjson
