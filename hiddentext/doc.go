// Package hiddentext is the one rendering of untrusted text for a person
// (PROTOCOL#hidden-text): Hidden says which characters a terminal does not show as
// themselves, and Sanitize writes each of them as a visible <U+XXXX> escape.
// The approval prompt, rx check, rx status, task validate, TASK.md and the
// git error messages all show its output, so the operator reads exactly the
// characters an agent will read.
//
// Hidden are control characters (C0 but newline and tab in a body; DEL;
// C1), Unicode Cf, Co, Cn (Go's Unicode 15.0), Zl, Zp, tag characters,
// variation selectors, every default-ignorable code point, and every space
// or blank other than U+0020: U+00A0, U+1680, U+2000–U+200A, U+202F,
// U+205F, U+3000, U+2800, U+115F, U+1160, U+3164, U+FFA0, U+FFFC, U+16FE4
// (hidden.go). The approval prompt counts them.
//
// It is a leaf: it imports nothing of the project, so that every layer,
// from gitcli up to the commands, can use it.
package hiddentext
