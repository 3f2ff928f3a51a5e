// Package e2e holds the end-to-end suites: the rfhandoff binary, built once
// by TestMain, run as a subprocess against real git remotes, real sshd and
// the HackRF simulator, on real pseudo-terminals where a prompt is
// involved; the fault and security suites; and the testscript scripts in
// the module's testdata/script/. It has no code outside its tests.
//
// What it offers: nothing to import; `go test ./e2e/` (docs/TESTING.md says
// what each suite covers).
package e2e
