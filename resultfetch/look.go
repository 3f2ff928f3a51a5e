package resultfetch

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"rfhandoff/result"
	"rfhandoff/state"
)

// MaxLookResults bounds one look at a result branch (PROTOCOL#trust): the
// commits that changed RX_RESULT.json since the last look that are read,
// the ones nearest the tip first. A lab publishes a few results per task;
// a MAIN side that looks every few seconds reads one or two. (A variable
// only so that a test can go past it without a thousand commits.)
var MaxLookResults = 1000

// Look is what one look at a result branch found in every result its tip's
// history got since the last look.
type Look struct {
	Tip string
	// Completed holds the TASK_ID of every CAPTURE_COMPLETE read, each
	// with the commit that brought it (the oldest, when several did).
	Completed map[string]string
	// Unread: there were more than MaxLookResults; then Named holds the
	// TASK_ID of every result that was read (each is counted as over: its
	// CAPTURE_COMPLETE may be among the unread ones).
	Unread bool
	Named  []string
}

// Look reads every version of RX_RESULT.json in tip's history since since
// ("": the whole history; see gitcli.FileHistorySince), merges and side
// branches included, at most MaxLookResults commits. A version counts as a
// CAPTURE_COMPLETE when it decodes strictly as a result of either schema
// version, signed or not: a COMPLETE can only end a task, so counting one
// nobody vouched for costs a task, never a transmission. Nothing read here
// is offered or shown.
func (s Source) Look(ctx context.Context, tip, since string) (Look, error) {
	vs, more, err := s.Git.FileHistorySince(ctx, tip, since, s.ResultPath(), s.Policy.Limits.MaxResultBytes, MaxLookResults)
	if err != nil {
		return Look{}, fmt.Errorf("reading the results on %s since %s: %w", s.Branch(), orFirst(since), err)
	}
	l := Look{Tip: tip, Completed: map[string]string{}, Unread: more}
	named := map[string]bool{}
	for _, v := range vs { // newest first: the oldest commit of a task's COMPLETE wins
		if v.Data == nil {
			continue // over max_result_bytes: no valid result
		}
		r, err := result.Decode(v.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes, Node: result.AnyNode, SyncMode: result.AnySync})
		if err != nil {
			continue
		}
		named[r.TaskID] = true
		if r.State == result.StateComplete {
			l.Completed[r.TaskID] = v.Commit
		}
	}
	if more {
		l.Named = slices.Sorted(maps.Keys(named))
	}
	return l, nil
}

// Record enters what l found into st: each COMPLETE's task is over and,
// past the bound, each task a result read named. It returns the TASK_IDs
// newly over, for the report.
func (l Look) Record(st *state.TX) []string {
	var newly []string
	for _, id := range slices.Sorted(maps.Keys(l.Completed)) {
		if TaskOver(st, id) == nil {
			newly = append(newly, id)
		}
		st.MarkCompleted(id, l.Completed[id])
	}
	for _, id := range l.Named {
		if TaskOver(st, id) == nil {
			newly = append(newly, id)
		}
		st.MarkOverUnread(id, l.Tip)
	}
	return newly
}

// OverIn is l's refusal of a READY for taskID (as TaskOver's), or nil.
func (l Look) OverIn(taskID string) error {
	var st state.TX
	l.Record(&st)
	return TaskOver(&st, taskID)
}

func orFirst(since string) string {
	if since == "" {
		return "the first commit"
	}
	return since[:min(len(since), 12)]
}
