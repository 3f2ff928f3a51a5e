// Package hiddentext is the one rendering of untrusted text for a person
// (PROTOCOL#hidden-text): Hidden says which characters a terminal does not show as
// themselves, and Sanitize writes each of them as a visible <U+XXXX> escape.
// The approval prompt, rx check, rx status, task validate, TASK.md and the
// git error messages all show its output, so the operator reads exactly the
// characters an agent will read.
//
// It is a leaf: it imports nothing of the project, so that every layer,
// from gitcli up to the commands, can use it.
//
// What it offers: Sanitize (a body), SanitizeLine (a one-line field), Hidden
// (one rune), Escapes (the kinds found, for rx check's summary) and
// EscapeJSON (JSON output printed where a terminal may read it).
package hiddentext
