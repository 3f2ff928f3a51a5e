package rxside

import (
	"context"
	"fmt"
	"io"
	"strings"

	"rfhandoff/captureplan"
	"rfhandoff/errlist"
	"rfhandoff/gate"
	"rfhandoff/hiddentext"
	"rfhandoff/state"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// Checked is what `rx check` found.
type Checked struct {
	Current  *taskfetch.Current
	Decision Decision
}

// Check fetches the task branch once, reads and validates the task at the fetched commit and
// records it as seen. Every problem is an error: the fetch, the task, and a task whose content
// changed under its TASK_ID (*contentChangedError).
func (s *Session) Check(ctx context.Context) (Checked, error) {
	cur, accept, err := s.fetch(ctx)
	if err != nil {
		return Checked{}, errlist.Join(err, s.Accept(accept))
	}
	d, err := s.Record(cur, accept)
	if err != nil {
		return Checked{}, err
	}
	c := Checked{Current: cur, Decision: d}
	if err := rejection(d, cur); err != nil {
		return c, err
	}
	// An approved or completed task is left to rx capture, which judges
	// its START_AT again.
	if d.Verdict.AwaitsApproval() {
		return c, s.startRefusal(cur.Task)
	}
	return c, nil
}

// startRefusal refuses to offer a task whose START_AT is past or closer than sync.min_lead_s
// by this node's clock (PROTOCOL#task-file): it could not be approved and armed in time.
func (s *Session) startRefusal(t *task.Task) error {
	if err := s.Policy.CheckStartAt(t.Capture, s.now()); err != nil {
		return fmt.Errorf("task %s refused: %w; nothing approved", t.ID, err)
	}
	return nil
}

// Reread is the approval's fresh look at the task branch, like Check but recording nothing.
func (s *Session) Reread(ctx context.Context) (*taskfetch.Current, error) {
	cur, _, err := s.fetch(ctx)
	return cur, err
}

// fetch reads the task against the accepted tip on record (PROTOCOL#trust).
func (s *Session) fetch(ctx context.Context) (*taskfetch.Current, *state.AcceptedTask, error) {
	p := s.Policy
	st, err := s.Store.Load()
	if err != nil {
		return nil, nil, err
	}
	cur, accept, err := taskfetch.FetchSince(ctx, s.Mirror, p, st.AcceptedTask)
	if err != nil {
		return nil, accept, fmt.Errorf("task branch %s/%s: %w", p.Repo.Remote, p.Repo.TaskBranch, err)
	}
	return cur, accept, nil
}

// WriteSummary prints a task and its verdict for the operator, every field sanitized; for a
// body holding characters a terminal does not show, how many and their escapes.
func WriteSummary(w io.Writer, cur *taskfetch.Current, v Verdict) {
	t := cur.Task
	fmt.Fprintf(w, "task:     %s\n", t.ID)
	fmt.Fprintf(w, "title:    %s\n", hiddentext.SanitizeLine(t.Title))
	if c := t.Capture; !c.StartAt.IsZero() {
		fmt.Fprintf(w, "start:    %s, SYNC_MODE %s\n", captureplan.StartText(c.StartAt), c.SyncMode)
	}
	if esc := hiddentext.Escapes(t.Body); len(esc) > 0 {
		fmt.Fprintf(w, "body:     holds %d hidden or control characters, shown as <U+XXXX> at the prompt and in TASK.md\n", len(esc))
		fmt.Fprintf(w, "escapes:  %s\n", distinctEscapes(esc))
	}
	fmt.Fprintf(w, "commit:   %s\n", cur.Commit)
	fmt.Fprintf(w, "level:    %s\n", levelLine(t))
	fmt.Fprintf(w, "approval: %s\n", gate.DescribeApproval(t.EffectiveLevel, t.RFTX, t.ID))
	fmt.Fprintf(w, "sha256:   %s\n", t.SHA256)
	if t.Nodes.Len() > 0 {
		fmt.Fprintf(w, "rx nodes: %s\n", t.Nodes)
	}
	if cur.Signer != nil {
		fmt.Fprintf(w, "signed:   %s\n", hiddentext.SanitizeLine(cur.Signer.String()))
	}
	fmt.Fprintf(w, "status:   %s\n", v)
}

// levelLine is the effective level with the declared and derived ones and the flags that
// derived it.
func levelLine(t *task.Task) string {
	level := fmt.Sprintf("%s (declared %s, derived %s", t.EffectiveLevel, t.DeclaredLevel, t.DerivedLevel)
	if r := gate.Reasons(t.Flags()); len(r) > 0 {
		level += " from " + strings.Join(r, ", ")
	}
	return level + ")"
}

const maxListedEscapes = 16

// distinctEscapes names each different escape once, in the order the body first holds it.
func distinctEscapes(esc []string) string {
	seen := map[string]bool{}
	var list []string
	for _, e := range esc {
		if !seen[e] {
			seen[e] = true
			list = append(list, e)
		}
	}
	if len(list) > maxListedEscapes {
		return fmt.Sprintf("%s and %d more", strings.Join(list[:maxListedEscapes], " "), len(list)-maxListedEscapes)
	}
	return strings.Join(list, " ")
}
