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
// "exactly one value, then only whitespace", and one error type (*Error,
// whose Kind says what was refused) that carries byte offsets. What
// differs between readers on purpose is a Shape (how much to keep, how
// deep to allow, whether trailing data is the reader's business) and how
// each words the errors.
//
// Fields is the one strict field-table decoder above Parse: a reader
// describes an object as a []Field[T] (key, Optional, and a Check that
// judges the one value as a *Node, stores it in a *T and returns "" or
// "must be ..., got ..."), and Fields returns every Problem at once —
// unknown keys (naming the key a case variant folds to), duplicates (not
// checked), missing required keys, refused values — plus the keys whose
// value was accepted, for the reader's rules across keys. A nested object
// is another table applied to the member's Node.Members with a key
// prefix of the reader's choosing. result uses it for RX_RESULT.json and
// its alignment, txwatch for authorization records; both build their
// Checks from the same value checks (check.go), so a value is judged and
// worded the same way in each.
//
// What it offers: Parse with a Shape, returning a tree of Nodes (and Value,
// a scalar as written); Fields; the value checks Int, Range, Boolean, Str,
// Match and Time; ErrEmpty and *Error with its Kind and
// byte offsets. The token reader below Parse is the package's own.
package strictjson
