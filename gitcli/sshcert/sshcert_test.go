package sshcert

import (
	"math"
	"testing"
	"time"
)

// ssh-keygen's rule for a certificate: valid-after ≤ t < valid-before.
func TestCertificateValidAt(t *testing.T) {
	c := Certificate{ValidAfter: 100, ValidBefore: 200}
	for at, want := range map[int64]bool{99: false, 100: true, 199: true, 200: false, -1: false} {
		if got := c.ValidAt(time.Unix(at, 0)); got != want {
			t.Errorf("ValidAt(%d) = %v", at, got)
		}
	}
	if !c.ValidAt(time.Unix(199, 999e6)) {
		t.Error("a fraction of a second counts in whole seconds")
	}
	if w := c.Window(); w != "valid from 1970-01-01T00:01:40Z, valid before 1970-01-01T00:03:20Z" {
		t.Errorf("Window() = %q", w)
	}
	always := Certificate{ValidBefore: math.MaxUint64}
	if !always.ValidAt(time.Date(2999, 1, 1, 0, 0, 0, 0, time.UTC)) || always.Window() != "valid from always, valid before forever" {
		t.Errorf("always:forever: %q", always.Window())
	}
}
