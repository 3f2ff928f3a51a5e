package txgate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/result"
)

// CheckAlignment: nothing for a task without START_AT; HOST_CLOCK has no
// edge to check; every failing rule at once, and a bound at the limit
// passes.
func TestCheckAlignment(t *testing.T) {
	start := time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)
	lim := config.Default().Limits
	at := func(a result.Alignment) *result.Result { return &result.Result{Alignment: &a} }
	host := result.Alignment{SyncMode: result.SyncHostClock, StartAt: start, Trigger: result.TriggerNotUsed, Bound: 100 * time.Millisecond, Aligned: true}
	if err := CheckAlignment(at(host), start, lim); err != nil {
		t.Errorf("HOST_CLOCK at the limit: %v", err)
	}
	if err := CheckAlignment(&result.Result{}, time.Time{}, lim); err != nil {
		t.Errorf("no START_AT: %v", err)
	}
	if got := failedTXRules(CheckAlignment(&result.Result{}, start, lim)); !slices.Equal(got, []TXRule{TXRuleAligned}) {
		t.Errorf("no alignment: %v", got)
	}
	late := start.Add(time.Second)
	pps := result.Alignment{SyncMode: result.SyncPPS, StartAt: start, EdgeAt: &late, Trigger: result.TriggerHonoured,
		Bound: 100*time.Millisecond + 1, Reasons: []string{"late"}}
	if got := failedTXRules(CheckAlignment(at(pps), start, lim)); !slices.Equal(got, []TXRule{TXRuleAligned, TXRuleEdge, TXRuleAlignmentBound}) {
		t.Errorf("PPS late, over the bound, not aligned: %v", got)
	}
	pps.EdgeAt = nil
	if err := CheckAlignment(at(pps), start, lim); err == nil || !strings.Contains(err.Error(), "trigger-edge: no edge identified, not START_AT 2026-12-02T20:00:00Z") {
		t.Errorf("PPS without an edge: %v", err)
	}
}
