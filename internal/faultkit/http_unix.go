//go:build unix

package faultkit

import "testing"

// needHTTPTransport: Debian's git has its http transport.
func needHTTPTransport(testing.TB, string) {}
