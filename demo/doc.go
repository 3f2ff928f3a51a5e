// Package demo runs the whole protocol once, end to end, in a throw-away
// sandbox (PROTOCOL#dry-run, PROTOCOL#command-line `demo [--auto]`): a temporary bare remote with the
// task branch and an existing result branch, an RX and a MAIN checkout, and
// the HackRF simulator (the rfhandoff binary under the tools' names) pinned
// in both sides' policies.
//
// The demo never takes a shortcut past a gate: every step runs the real
// command (rx check, rx approve, rx capture, tx watch, tx execute, audit
// verify) as a child of the same binary with its own --config in the
// sandbox. Approvals happen at those commands' own prompts, on the
// operator's terminal where the person types them, or, with --auto, each
// prompting child gets a pseudo-terminal of its own as its controlling
// terminal: the demo shows what it prints ("RX   |", "MAIN |") and types,
// once each prompt is shown, only the answer that step expects.
// A prompt it does not expect is never answered: the step fails.
//
// --auto acts only inside the sandbox it has just created: before any child
// starts, the policy it will read is loaded back and every path in it
// (checkout, state, audit log, captures, tools) must lie inside the sandbox.
//
// With Options.RXNodes 2 to 8 the sandbox holds that many RX nodes
// (rx-a, rx-b, ...: nodes.go), each its own checkout, result branch, key and
// [node] name, and the task names them in RX_NODES (PROTOCOL#several-nodes).
// After tx execute the sandbox writes an on-air file that every node's
// simulator hears at its own delay and level (onair.go, HACKRF_SIM_ONAIR).
package demo
