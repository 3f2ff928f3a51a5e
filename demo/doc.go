// Package demo runs the whole protocol once, end to end, in a throw-away
// sandbox (PROTOCOL#dry-run, PROTOCOL#command-line `demo [--auto]`): a temporary bare remote with the
// task branch and an existing result branch, an RX and a MAIN checkout, and
// the HackRF simulator (the rfhandoff binary under the tools' names) pinned
// in both sides' policies.
//
// The demo never takes a shortcut past a gate. Every step runs the real
// command — rx check, rx approve, rx capture, tx watch, tx execute, audit
// verify — as a child process of the same binary with its own --config
// pointing into the sandbox. Approvals happen at those commands' own
// terminal prompts:
//
//   - interactively, the prompting child shares the operator's terminal
//     and the person types A and the phrases;
//   - with --auto, the demo gives each prompting child a pseudo-terminal
//     of its own as its controlling terminal, shows what it prints
//     (prefixed "RX   |" or "MAIN |") and types, after each prompt has been
//     shown, only the answer that step expects. A prompt it does not
//     expect is never answered: the step fails.
//
// --auto acts only inside the sandbox it has just created: before any child
// starts, the policy that child will read is loaded back and every path in
// it (checkout, state, audit log, captures, tools) must lie inside the
// sandbox directory, or the demo refuses to go on.
//
// With Options.RXNodes 2 to 8 the sandbox holds that many RX nodes
// (rx-a, rx-b, ...: nodes.go), each its own checkout, result branch, key and
// [node] name, and the task names them in RX_NODES (PROTOCOL#several-nodes). When
// tx execute has run the fake action, the sandbox writes an on-air file
// that every node's simulator hears at its own delay and level
// (onair.go, HACKRF_SIM_ONAIR).
//
// What it offers: Run, the whole walkthrough (`rfhandoff demo`), and
// NewSandbox, the throw-away lab it runs in.
package demo
