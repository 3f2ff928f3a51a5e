// Package strictjson walks a JSON text token by token for the strict
// readers (RX_RESULT.json, authorization records, state files), because
// encoding/json would fold key case, keep only the last of duplicate keys,
// ignore null and read 1.0 into an int: a strict reader must refuse each.
//
// Parse reads one JSON object into a tree of Nodes: values as written
// (numbers keep their literal text), every occurrence of every key in
// first-seen order, containers below a level skipped with their raw text,
// a depth bound, "exactly one value, then only whitespace", and one error
// type (*Error, whose Kind says what was refused) carrying byte offsets.
// What differs between readers on purpose is a Shape and how each words
// the errors.
//
// Fields decodes an object through a field table ([]Field[T]) and returns
// every Problem at once, plus the keys whose value was accepted, for the
// reader's rules across keys; a nested object is another table applied to
// the member's Node.Members. result and txwatch build their Checks from
// the same value checks (check.go), so a value is judged and worded the
// same way in each.
//
// What it offers: Parse with a Shape, returning a tree of Nodes (and Value,
// a scalar as written); Fields; the value checks Int, Range, Boolean, Str,
// Match and Time; ErrEmpty and *Error with its Kind and
// byte offsets. The token reader below Parse is the package's own.
package strictjson
