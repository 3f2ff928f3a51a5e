// Package publishtest builds the world a publish runs in, with real git:
// a bare remote holding a task branch and an existing result branch, a
// full RX checkout of the task branch with .local/ ignored, RX state with
// the task approved, and a READY result for it. The publish tests, the
// command tests and the capture executor's tests share it.
//
// What it offers: New, a Fixture with the remote, the checkout, the state,
// Approve, Ready and the Deps a publish takes; SeedResultBranch and Encode for
// the tests that shape the result branch.
package publishtest
