// Package backoff is the watchers' delay after failed polls: exponential
// growth with jitter, capped, reset by a success.
//
// What it offers: Backoff (Next after a failure, Reset after a success,
// Failures) and Sleep, a wait that ends early with its context. The watchers
// and the notification queue use it.
package backoff
