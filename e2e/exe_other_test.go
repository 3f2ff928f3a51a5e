//go:build !windows

package e2e

import "testing"

const exeSuffix = ""

// skipDemoAuto: demo --auto runs on Unix.
func skipDemoAuto(*testing.T) {}

// skipHugePush: a Unix git pushes at disk speed.
func skipHugePush(*testing.T, int) {}
