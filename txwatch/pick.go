package txwatch

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Pick is tx execute without a RECORD: the one issued, unused, unexpired
// record. With none or several it is an error and nothing is chosen.
func (s Store) Pick(now time.Time) (string, error) {
	l, err := s.list().Load()
	if err != nil {
		return "", fmt.Errorf("cannot read the authorization list to find the record: %w", err)
	}
	var usable, expired []RecordStatus
	for name, e := range l.Records {
		if e.UsedAt != nil {
			continue
		}
		switch rs := recordStatus(s, l, name, now); rs.Status {
		case RecordUnused:
			usable = append(usable, rs)
		case RecordExpired:
			expired = append(expired, rs)
		}
	}
	byExpiry := func(a, b RecordStatus) int { return a.Record.ExpiresAt.Compare(b.Record.ExpiresAt) }
	slices.SortFunc(usable, byExpiry)
	slices.SortFunc(expired, byExpiry)
	switch {
	case len(usable) == 1:
		return usable[0].Name, nil
	case len(usable) > 1:
		var b strings.Builder
		for _, rs := range usable {
			fmt.Fprintf(&b, "\n  rfhandoff tx execute %s   (task %s, expires %s)", rs.Name, rs.Record.TaskID, rs.Record.ExpiresAt.Local().Format(time.RFC3339))
		}
		return "", fmt.Errorf("%d unused records, so none is chosen; name the one to execute:%s", len(usable), b.String())
	case len(expired) > 0:
		last := expired[len(expired)-1]
		return "", fmt.Errorf("no unused, unexpired record in %s: the newest, %s (task %s), expired at %s; %s",
			s.ListPath(), last.Name, last.Record.TaskID, last.Record.ExpiresAt.Local().Format(time.RFC3339), WhatNow(*last.Record, now))
	}
	return "", fmt.Errorf("no unused, unexpired record in %s: run rfhandoff tx watch and authorize a READY first", s.ListPath())
}

// WhatNow tells the operator what can be done after a record can no longer
// be used: a READY once offered is never offered again (PROTOCOL#main-pc).
func WhatNow(rec Record, now time.Time) string {
	left := rec.CaptureEndsAt.Sub(now)
	if left <= 0 {
		return fmt.Sprintf("its capture ended at %s: write a new task (rfhandoff task new, a new TASK_ID) for another capture and authorize its READY",
			rec.CaptureEndsAt.Local().Format(time.RFC3339))
	}
	return fmt.Sprintf("its capture still runs for %s (until %s), but this READY cannot be authorized again: "+
		"authorize a fresh READY if the receiver publishes one, or let the capture end and write a new task (rfhandoff task new, a new TASK_ID)",
		left.Truncate(time.Second), rec.CaptureEndsAt.Local().Format(time.RFC3339))
}

// WhatNowSetup is WhatNow for a record refused for this side's policy or
// files alone: it stays usable until it expires.
func WhatNowSetup(rec Record, now time.Time) string {
	return fmt.Sprintf("the record is still unused and usable until %s (%s from now): fix what is named above in this side's policy or files "+
		"(a [tx] value changed since the authorization goes back to the authorized one) and run tx execute again",
		rec.ExpiresAt.Local().Format(time.RFC3339), rec.ExpiresAt.Sub(now).Truncate(time.Second))
}
