// Command rfhandoff coordinates an over-the-air RF experiment between an RX
// laptop and a MAIN PC through a shared git remote (see README.md).
//
// What it offers: the kong command tree and Main (cli.go), which main and the
// in-process tests of the offline commands call; App (app.go, app_notify.go),
// what every command's Run receives: the context, streams, policy and logger,
// the audit log, git on the checkout and the notifier; and one file per command
// (cmd_*.go), wiring the workflow packages to flags, streams and exit statuses
// (exit.go).
package main
