package tasknew

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"rfhandoff/gitcli"
	"rfhandoff/mirror"
	"rfhandoff/result"
	"rfhandoff/resultfetch"
	"rfhandoff/task"
)

// sighting is where a TASK_ID was seen.
type sighting struct {
	Commit string
	State  result.State // results only; "" for a result that fails the schema
	Ends   time.Time    // when a READY's capture is planned to end; zero otherwise
}

// history is what the task and result branches say about used IDs.
type history struct {
	InTask map[string]sighting // a task branch commit whose task file has the ID
	// InResult: a result branch commit whose RX_RESULT.json names the ID
	// (a COMPLETE one when there is one).
	InResult     map[string]sighting
	ResultBranch bool     // false when the result branch does not exist
	Unread       []string // notes about versions too large to read
	Current      []string // the TASK_IDs of the task file at the task branch tip
}

// Completed reports whether a COMPLETE result for id is on the result branch: that is how the
// MAIN side knows a task has run to its end.
func (h *history) Completed(id string) bool {
	s, ok := h.InResult[id]
	return ok && s.State == result.StateComplete
}

// readHistory reads every version of the task file reachable from the task branch tip and of
// RX_RESULT.json on the result branch (fetched narrowly here), in the mirror: for each branch
// a constant number of git processes however long the history is (gitcli.FileHistory).
func (w *Writer) readHistory(ctx context.Context, m *mirror.Mirror, tip string) (*history, error) {
	p := w.Policy
	h := &history{InTask: map[string]sighting{}, InResult: map[string]sighting{}}
	versions, err := m.FileHistory(ctx, tip, p.Repo.TaskFile, p.Limits.MaxTaskBytes)
	if err != nil {
		return nil, fmt.Errorf("read the history of %s on %s: %w", p.Repo.TaskFile, w.taskRef(), err)
	}
	for i, v := range versions {
		if v.Data == nil {
			h.Unread = append(h.Unread, fmt.Sprintf("the task file at commit %s is %s: its TASK_ID was not read (the RX side refuses such a file unread)", v.Commit, overLimit(v.Size, "max_task_bytes")))
			continue
		}
		if i == 0 && v.Commit == tip {
			h.Current = task.PeekIDs(v.Data)
		}
		for _, id := range task.PeekIDs(v.Data) {
			h.InTask[id] = sighting{Commit: v.Commit} // versions come newest first: the oldest wins
		}
	}

	src := resultfetch.Source{Git: m, Policy: p}
	commit, err := src.FetchResultCommit(ctx)
	if errors.Is(err, gitcli.ErrNotFound) {
		return h, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fetch the result branch %s: %w", w.resultRef(), err)
	}
	h.ResultBranch = true
	versions, err = m.FileHistory(ctx, commit, src.ResultPath(), p.Limits.MaxResultBytes)
	if err != nil {
		return nil, fmt.Errorf("read the history of %s on %s: %w", src.ResultPath(), w.resultRef(), err)
	}
	for _, v := range versions {
		if v.Data == nil {
			h.Unread = append(h.Unread, fmt.Sprintf("the result at commit %s is %s: its task_id was not read", v.Commit, overLimit(v.Size, "max_result_bytes")))
			continue
		}
		var ids []string
		var state result.State
		var ends time.Time
		if r, err := result.Decode(v.Data, result.Options{MaxBytes: p.Limits.MaxResultBytes, Node: result.AnyNode}); err == nil {
			ids, state = []string{r.TaskID}, r.State
			if state == result.StateReady {
				ends = r.CaptureStartedAt.Add(time.Duration(r.PlannedDurationS) * time.Second)
			}
		} else {
			ids = result.PeekTaskIDs(v.Data)
		}
		for _, id := range ids {
			if h.Completed(id) {
				continue // keep the COMPLETE sighting
			}
			if prev, ok := h.InResult[id]; ok && prev.State == result.StateReady && state != result.StateComplete {
				continue // versions come newest first: keep the newest READY
			}
			h.InResult[id] = sighting{Commit: v.Commit, State: state, Ends: ends}
		}
	}
	return h, nil
}

func (w *Writer) usedErrors(h *history, id string) []error {
	var errs []error
	if s, ok := h.InTask[id]; ok {
		errs = append(errs, fmt.Errorf("TASK_ID %s was already used: the task file at commit %s on %s has it; a new task needs a new ID", id, s.Commit, w.taskRef()))
	}
	if s, ok := h.InResult[id]; ok {
		state := cmp.Or(string(s.State), "not a valid result")
		errs = append(errs, fmt.Errorf("TASK_ID %s was already used: the result at commit %s on %s is for it (%s); a new task needs a new ID", id, s.Commit, w.resultRef(), state))
	}
	return errs
}

// liveCaptures refuses, unless force, a new task while the result branch shows a READY
// without COMPLETE for the current task: its capture is running (or died unrecovered), and a
// new task would make the RX side's operator approve the next one during it.
func (w *Writer) liveCaptures(h *history, force bool, now time.Time) []error {
	if force || h == nil {
		return nil
	}
	var errs []error
	for _, id := range h.Current {
		s, ok := h.InResult[id]
		if !ok || s.State != result.StateReady {
			continue
		}
		when := fmt.Sprintf("its capture ends at %s (in %s)", s.Ends.UTC().Format(time.RFC3339), s.Ends.Sub(now).Round(time.Second))
		if !s.Ends.After(now) {
			when = fmt.Sprintf("its capture was planned to end at %s (%s ago), yet no COMPLETE came: the RX side may be down or its COMPLETE unpublished (rx status there says)",
				s.Ends.UTC().Format(time.RFC3339), now.Sub(s.Ends).Round(time.Second))
		}
		errs = append(errs, fmt.Errorf("task %s is capturing: READY at commit %s on %s and no COMPLETE yet; %s. "+
			"Wait for its COMPLETE, or pass --force to write the new task anyway (the RX side still publishes that capture's COMPLETE)",
			id, s.Commit, w.resultRef(), when))
	}
	return errs
}

// overLimit says how a version is over the limit key; a size of -1 is one the server withheld.
func overLimit(n int64, key string) string {
	if n < 0 {
		return "over " + key + " (withheld by the server, never downloaded)"
	}
	return fmt.Sprintf("%d bytes, over %s", n, key)
}
