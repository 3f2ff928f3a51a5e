//go:build !windows

package demorun

import "testing"

// skipDemoAuto: demo --auto runs on Unix.
func skipDemoAuto(*testing.T) {}
