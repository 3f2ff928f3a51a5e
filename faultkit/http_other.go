//go:build !windows

package faultkit

import "testing"

// needHTTPTransport: a Unix git is built with its http transport (Debian's
// git-remote-http is in the git package itself).
func needHTTPTransport(testing.TB, string) {}
