// Command rfhandoff coordinates an over-the-air RF experiment between an RX
// laptop and a MAIN PC through a shared git remote (see README.md).
//
// cli.go holds the kong command tree and Main (also called by in-process
// tests); App (app.go, app_notify.go) is what every command's Run receives;
// each cmd_*.go wires the workflow packages to flags, streams and exit
// statuses (exit.go).
package main
