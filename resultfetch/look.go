package resultfetch

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"rfhandoff/result"
	"rfhandoff/state"
)

// MaxLookResults bounds the results one look reads, nearest the tip first
// (PROTOCOL#trust). A variable only so that a test can go past it.
var MaxLookResults = 1000

// Look is what one look found in every result since the last look.
type Look struct {
	Tip       string
	Completed map[string]string // each COMPLETE's TASK_ID → the oldest commit that brought it
	// Unread: more than MaxLookResults; then each task Named counts as over
	// (its CAPTURE_COMPLETE may be among the unread ones).
	Unread bool
	Named  []string
}

// Look reads every version of RX_RESULT.json since since ("": all). A
// COMPLETE counts signed or not: it can only end a task, never allow a
// transmission. Nothing read here is offered or shown.
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

// Record enters the tasks l found over into st and returns those newly over.
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
