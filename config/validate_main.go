package config

import "rfhandoff/errlist"

// ValidateMAIN checks what only the MAIN side needs: that the keys only it
// uses (limits.min_remaining_s, tx.duration_s) fit in
// limits.planned_duration_s, which both sides use. Validate leaves this out,
// so that such a mistake never stops an RX command; tx watch and tx execute
// refuse a policy that fails it, and config check reports it. It assumes
// Validate passed (each value in range by itself), so one mistake is
// reported once. The error lists the invalid values like Validate's.
func (p Policy) ValidateMAIN() error {
	var ps problems
	l, t := p.Limits, p.TX
	if l.MinRemainingS >= l.PlannedDurationS {
		ps.add("limits.min_remaining_s", l.MinRemainingS,
			"must be less than limits.planned_duration_s (%d), or no transmission could ever be authorized", l.PlannedDurationS)
	} else if t.DurationS+l.MinRemainingS > l.PlannedDurationS {
		// tx execute needs duration_s + min_remaining_s of capture left.
		ps.add("tx.duration_s", t.DurationS, "plus limits.min_remaining_s (%d) exceeds limits.planned_duration_s (%d): no transmission could ever run",
			l.MinRemainingS, l.PlannedDurationS)
	}
	return errlist.List(ps...)
}
