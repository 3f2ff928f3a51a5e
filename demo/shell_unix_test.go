//go:build unix

package demo

import "testing"

// skipWithoutShell: every unix has the sh git runs its remote helpers with.
func skipWithoutShell(*testing.T) {}
