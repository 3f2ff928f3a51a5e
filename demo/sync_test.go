package demo

import (
	"strings"
	"testing"
	"time"
)

// TestParseSync: pps and host (any case, or the SYNC_MODE itself) are the
// scheduled demo's modes; anything else is refused naming the value and
// what to give instead.
func TestParseSync(t *testing.T) {
	for in, want := range map[string]string{"pps": "PPS", "PPS": "PPS", "host": "HOST_CLOCK", "HOST_CLOCK": "HOST_CLOCK", "Host": "HOST_CLOCK"} {
		got, err := ParseSync(in)
		if err != nil || got != want {
			t.Errorf("ParseSync(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "gps", "pps ", "none"} {
		_, err := ParseSync(in)
		if err == nil || !strings.Contains(err.Error(), `--sync "`+in+`"`) || !strings.Contains(err.Error(), "--sync pps") || !strings.Contains(err.Error(), "--sync host") {
			t.Errorf("ParseSync(%q): %v; want a refusal naming the value and both modes", in, err)
		}
	}
}

// TestStartIn: START_AT leaves every node its check and approval, then
// more than the nodes' sync.min_lead_s.
func TestStartIn(t *testing.T) {
	for _, auto := range []bool{true, false} {
		for _, n := range []int{1, 3, 8} {
			got := startIn(auto, n)
			if min := approvalAllowance(auto)*time.Duration(n) + syncMinLeadS*time.Second; got <= min {
				t.Errorf("startIn(auto %v, %d nodes) = %s, want more than %s", auto, n, got, min)
			}
		}
	}
}
