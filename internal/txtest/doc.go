// Package txtest builds MAIN-side fixtures for tests: a bare remote with a
// task branch holding a valid task and an existing result branch, a MAIN
// checkout whose .local/ git ignores, READY results published straight to
// the result branch, and a policy that points at the checkout.
//
// Everything git does goes through gittest's real exec stack.
//
// What it offers: New, a MAIN world with a remote, a checkout and a policy,
// with methods to set the task and publish READY results; Ready and ToolStarts
// for asserting what ran; and the world txwatch's and transmit's tests share:
// Env (a fixture with an audited RoleTransmit runner), Nodes (several
// receivers), ScriptAsker (the operator at the prompt), WaitFor and Run.
package txtest
