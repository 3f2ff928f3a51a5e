// Package tasktest is the one set of handoff fixtures the test helpers
// (faultkit, rxtest, txtest, publishtest) and the tests share: the
// protocol's default branch and file names, task files at any risk level,
// and READY results.
//
// It is test infrastructure: only tests and test helpers import it.
//
// What it offers: TaskSpec, TaskFile and Capture (task files), Ready (a READY
// result for a policy) and the protocol's branch and file names.
package tasktest
