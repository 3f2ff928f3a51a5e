//go:build !windows

package e2e

import "testing"

// skipDemoAuto: demo --auto runs on Unix.
func skipDemoAuto(*testing.T) {}

// skipHugePush: a Unix git pushes at disk speed.
func skipHugePush(*testing.T, int) {}

// nodesPlanned and nodesLimits time the three-node scenario: 40 s of
// capture is enough for MAIN to see three READYs and the phrase.
const (
	nodesPlanned = 40
	nodesLimits  = ""
)
