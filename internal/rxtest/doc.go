// Package rxtest builds RX-side fixtures for tests: a bare remote with a
// task branch and a result branch, a full RX checkout whose state directory
// git ignores, a policy file with short poll intervals, and tasktest's
// tasks pushed to it. (To serve the remote over git://, stopped and started
// by the test, use gittest.StartDaemon on the remote's parent directory.)
//
// Everything git does goes through gittest's real exec stack.
//
// What it offers: New, an RX world with a remote, a checkout and a policy, with
// methods to push (or force-push) tasks and get the RX runner; CountStarts for
// asserting how many programs ran.
package rxtest
