//go:build !windows

package e2e

import "testing"

// skipHugePush: a Unix git pushes at disk speed.
func skipHugePush(*testing.T, int) {}
