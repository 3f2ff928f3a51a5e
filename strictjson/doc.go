// Package strictjson walks a JSON text token by token for the strict
// readers (RX_RESULT.json, authorization records, state files), because
// encoding/json would fold key case, keep only the last of duplicate keys,
// ignore null and read 1.0 into an int: a strict reader must refuse each.
//
// It gives the pieces those readers share: values as written (numbers keep
// their literal text), every occurrence of every key in first-seen order,
// skipping a container, "exactly one value, then only whitespace", and
// typed errors that carry byte offsets. Each reader keeps its own
// recursion, because what it keeps, how deep it lets a document nest and
// how it words each problem differ on purpose.
//
// What it offers: NewReader and the Reader's Read, Object, Members, Elements,
// Skip and End; Value; and the typed errors with their byte offsets.
package strictjson
