package rxwatch

import (
	"context"
	"fmt"
	"io"
	"strings"

	"rfhandoff/gate"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// Checked is what `rx check` found.
type Checked struct {
	Current  *taskfetch.Current
	Decision Decision
}

// Check fetches the task branch once, reads and validates the task at the
// fetched commit and records it as seen. Every problem is an error: the
// fetch (network, force-push), the task (*task.InvalidError with every
// reason, *taskfetch.NotAncestorError, ...) and a task whose content
// changed under its TASK_ID (*ChangedError).
func (s *Session) Check(ctx context.Context) (Checked, error) {
	p := s.Policy
	cur, err := taskfetch.Fetch(ctx, s.Mirror, p)
	if err != nil {
		return Checked{}, fmt.Errorf("task branch %s/%s: %w", p.Repo.Remote, p.Repo.TaskBranch, err)
	}
	d, err := s.Record(cur)
	if err != nil {
		return Checked{}, err
	}
	if d.Verdict == Changed {
		return Checked{Current: cur, Decision: d}, changedError(d, cur)
	}
	return Checked{Current: cur, Decision: d}, nil
}

// WriteSummary prints a task and its verdict for the operator; every field
// from the task is sanitized, and a body holding characters a terminal does
// not show says how many (the prompt and TASK.md show them as <U+XXXX>).
func WriteSummary(w io.Writer, cur *taskfetch.Current, v Verdict) {
	t := cur.Task
	level := fmt.Sprintf("%s (declared %s, derived %s", t.EffectiveLevel, t.DeclaredLevel, t.DerivedLevel)
	if r := gate.Reasons(t.Flags()); len(r) > 0 {
		level += " from " + strings.Join(r, ", ")
	}
	fmt.Fprintf(w, "task:     %s\n", t.ID)
	fmt.Fprintf(w, "title:    %s\n", mdLine(t.Title))
	if n := task.Escapes(t.Body); n > 0 {
		fmt.Fprintf(w, "body:     holds %d hidden or control characters, shown as <U+XXXX> at the prompt and in TASK.md\n", n)
	}
	fmt.Fprintf(w, "commit:   %s\n", cur.Commit)
	fmt.Fprintf(w, "level:    %s)\n", level)
	fmt.Fprintf(w, "approval: %s\n", gate.DescribeApproval(t.EffectiveLevel, t.RFTX, t.ID))
	fmt.Fprintf(w, "sha256:   %s\n", t.SHA256)
	if t.Nodes.Len() > 0 {
		fmt.Fprintf(w, "rx nodes: %s\n", t.Nodes)
	}
	if cur.Signer != nil {
		fmt.Fprintf(w, "signed:   %s\n", mdLine(cur.Signer.String()))
	}
	fmt.Fprintf(w, "status:   %s\n", v)
}

// sanitizeErr renders an error for a log line; task errors already quote
// their values, this keeps anything else on one safe line too.
func sanitizeErr(err error) string { return mdLine(err.Error()) }
