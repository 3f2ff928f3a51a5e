package txwatch

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"rfhandoff/result"
	"rfhandoff/state"
)

// maxLookResults bounds one look at a result branch (PROTOCOL#trust): the
// commits that changed RX_RESULT.json since the last look that are read,
// the ones nearest the tip first. A lab publishes a few results per task;
// a MAIN side that looks every few seconds reads one or two. (A variable
// only so that a test can go past it without a thousand commits.)
var maxLookResults = 1000

// look is what one look at a result branch found in every result its tip's
// history got since the last look.
type look struct {
	tip string
	// completed holds the TASK_ID of every CAPTURE_COMPLETE read, each
	// with the commit that brought it (the oldest, when several did).
	completed map[string]string
	// unread: there were more than maxLookResults; then named holds the
	// TASK_ID of every result that was read (each is counted as over: its
	// CAPTURE_COMPLETE may be among the unread ones).
	unread bool
	named  []string
}

// look reads every version of RX_RESULT.json in tip's history since since
// ("": the whole history; see gitcli.FileHistorySince), merges and side
// branches included, at most maxLookResults commits. A version counts as a
// CAPTURE_COMPLETE when it decodes strictly as a result of either schema
// version, signed or not: a COMPLETE can only end a task, so counting one
// nobody vouched for costs a task, never a transmission. Nothing read here
// is offered or shown.
func (s Source) look(ctx context.Context, tip, since string) (look, error) {
	vs, more, err := s.Git.FileHistorySince(ctx, tip, since, s.ResultPath(), s.Policy.Limits.MaxResultBytes, maxLookResults)
	if err != nil {
		return look{}, fmt.Errorf("reading the results on %s since %s: %w", s.Branch(), orFirst(since), err)
	}
	l := look{tip: tip, completed: map[string]string{}, unread: more}
	named := map[string]bool{}
	for _, v := range vs { // newest first: the oldest commit of a task's COMPLETE wins
		if v.Data == nil {
			continue // over max_result_bytes: no valid result
		}
		r, err := result.Decode(v.Data, result.Options{MaxBytes: s.Policy.Limits.MaxResultBytes, Node: result.AnyNode})
		if err != nil {
			continue
		}
		named[r.TaskID] = true
		if r.State == result.StateComplete {
			l.completed[r.TaskID] = v.Commit
		}
	}
	if more {
		l.named = slices.Sorted(maps.Keys(named))
	}
	return l, nil
}

// record enters what l found into st: each COMPLETE's task is over and,
// past the bound, each task a result read named. It returns the TASK_IDs
// newly over, for the report.
func (l look) record(st *state.TX) []string {
	var newly []string
	for _, id := range slices.Sorted(maps.Keys(l.completed)) {
		if taskOver(st, id) == nil {
			newly = append(newly, id)
		}
		st.MarkCompleted(id, l.completed[id])
	}
	for _, id := range l.named {
		if taskOver(st, id) == nil {
			newly = append(newly, id)
		}
		st.MarkOverUnread(id, l.tip)
	}
	return newly
}

// report says, once, what a look found that ended tasks: the tasks newly
// over, and a look past the bound.
func (w *Watcher) reportLook(branch string, l look, newly []string) {
	if l.unread {
		w.rep.once("unread:"+branch+":"+l.tip, "result branch %s at %s: more than %d results since the last look; the %d nearest the tip were read, "+
			"and every task they name (%s) counts as over, as a CAPTURE_COMPLETE for it among the unread ones cannot be ruled out: "+
			"a new task goes on", branch, short(l.tip), maxLookResults, maxLookResults, strings.Join(l.named, ", "))
	}
	for _, id := range newly {
		if c, ok := l.completed[id]; ok && c != l.tip {
			w.rep.once("over:"+id, "task %s is over: a CAPTURE_COMPLETE for it was seen at result commit %s on %s (since the last look, not at the tip %s)",
				id, c, branch, short(l.tip))
		}
	}
}

// overIn is l's refusal of a READY for taskID (as taskOver's), or nil.
func (l look) overIn(taskID string) error {
	var st state.TX
	l.record(&st)
	return taskOver(&st, taskID)
}

func orFirst(since string) string {
	if since == "" {
		return "the first commit"
	}
	return short(since)
}
