//go:build !linux

package faultkit

import (
	"io/fs"
	"testing"
)

// NewAccount skips the test: a second OS account is made on Linux only
// (useradd, userdel).
func NewAccount(t testing.TB) *Account {
	t.Helper()
	t.Skip("faultkit: a second OS account is made on Linux only (useradd); this system's tests run as one account")
	return nil
}

// Run is never reached: NewAccount skips first.
func (a *Account) Run(t testing.TB, _ string, _ []string, _ string, _ ...string) Output {
	t.Helper()
	t.Fatal("faultkit: Account.Run without an account")
	return Output{}
}

func ownedByMe(fs.FileInfo) bool { return false }
