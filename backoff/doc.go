// Package backoff is the watchers' delay after failed polls: exponential
// growth with jitter, capped, reset by a success. Sleep is a wait that
// ends early with its context.
package backoff
