//go:build !windows

package exec

import "testing"

func TestProtocolOfDriveLikeHost(t *testing.T) {
	if got := ProtocolOf("C:/lab/rf.git"); got != "ssh" {
		t.Errorf(`ProtocolOf("C:/lab/rf.git") = %q, want "ssh" (git's scp-like host "C")`, got)
	}
}
