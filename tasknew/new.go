package tasknew

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/go-multierror"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/localfile"
	"rfhandoff/mirror"
	"rfhandoff/task"
	"rfhandoff/taskfetch"
)

// Writer writes task files in one MAIN checkout. It reads the task and result branches
// through the MAIN side's mirror (the one tx watch and tx execute use): the checkout is never
// fetched into, and media pushed to the task branch is never downloaded.
type Writer struct {
	Git    *gitcli.Client // on the checkout
	Policy config.Policy
	Log    *slog.Logger // the mirror's warnings (a rebuild); nil discards them
}

// Request is the task to write. Spec.SourceBranch is always the policy's task branch; an
// empty Spec.ExpectedHead means the fetched tip.
type Request struct {
	Spec task.Spec
	Out  string // "" means the policy's task_file in the checkout
	// Force overwrites a file holding another task that has not completed.
	Force bool
	// Problems the caller found already (an unreadable body file): they
	// are reported with the others and nothing is written.
	Problems []error
}

type Written struct {
	Path       string
	TaskFile   string // the policy's task_file (repository-relative, with '/')
	IsTaskFile bool
	Task       *task.Task
	Tip        string // the fetched task branch tip
	Head       string // the checkout's HEAD; "" when unknown
	Replaced   string // the TASK_ID of the task file overwritten, if any
	Notes      []string
}

// unknownHead stands in for EXPECTED_HEAD when the task branch could not
// be fetched, so that every other field is still checked and reported.
var unknownHead = strings.Repeat("0", 40)

// Write checks everything and reports every reason at once, writing nothing, or writes the
// task file atomically.
func (w *Writer) Write(ctx context.Context, req Request) (*Written, error) {
	p := w.Policy
	s := req.Spec
	s.SourceBranch = p.Repo.TaskBranch
	errs := slices.Clone(req.Problems)

	m, tip, err := w.fetchTip(ctx)
	if err != nil {
		errs = append(errs, err)
	}
	switch {
	case s.ExpectedHead == "" && tip != "":
		s.ExpectedHead = tip
	case s.ExpectedHead == "":
		s.ExpectedHead = unknownHead
	case tip != "" && gitcli.ValidObjectID(s.ExpectedHead) == nil:
		if err := w.checkAncestor(ctx, m, s.ExpectedHead, tip); err != nil {
			errs = append(errs, err)
		}
	}

	data, t, err := task.Build(s, task.Options{TaskBranch: p.Repo.TaskBranch, MaxBytes: p.Limits.MaxTaskBytes})
	var inv *task.InvalidError
	idOK := true
	switch {
	case errors.As(err, &inv):
		for _, prob := range inv.Problems() {
			errs = append(errs, fmt.Errorf("task file: %w", prob))
			idOK = idOK && prob.Field != task.FieldTaskID
		}
	case err != nil:
		errs = append(errs, err)
	}

	var h *history
	var notes []string
	if tip != "" {
		if h, err = w.readHistory(ctx, m, tip); err != nil {
			errs = append(errs, err)
		} else {
			notes = append(notes, h.Unread...)
			if idOK {
				errs = append(errs, w.usedErrors(h, s.ID)...)
			}
			errs = append(errs, w.liveCaptures(h, req.Force, time.Now())...)
		}
	}

	path := cmp.Or(req.Out, p.Resolve(p.Repo.TaskFile))
	replaced, err := w.checkOverwrite(path, s.ID, h, req.Force)
	if err != nil {
		errs = append(errs, err)
	}

	if len(errs) > 0 {
		return nil, &multierror.Error{Errors: errs, ErrorFormat: refusedFormat}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := localfile.WriteFileAtomic(path, data, 0o644); err != nil {
		return nil, err
	}
	out := &Written{Path: path, TaskFile: p.Repo.TaskFile, IsTaskFile: samePath(path, p.Resolve(p.Repo.TaskFile)),
		Task: t, Tip: tip, Replaced: replaced, Notes: notes}
	if head, err := w.Git.Head(ctx); err == nil {
		out.Head = head
	}
	return out, nil
}

// fetchTip opens the MAIN side's mirror (creating the state directory on first use), does the
// watchers' narrow, non-forced fetch of the task branch and resolves the fetched commit once.
func (w *Writer) fetchTip(ctx context.Context) (*mirror.Mirror, string, error) {
	p := w.Policy
	var m *mirror.Mirror
	err := os.MkdirAll(p.StatePath(), 0o700)
	if err == nil {
		m, err = mirror.ForTX(ctx, w.Git, p, w.Log)
	}
	if err == nil {
		_, err = m.FetchBranchUpdated(ctx, p.Repo.Remote, p.Repo.TaskBranch)
	}
	if err != nil {
		return nil, "", fmt.Errorf("fetch the task branch %s: %w", w.taskRef(), err)
	}
	tip, err := m.ResolveCommit(ctx, taskfetch.TrackingRef(p, p.Repo.TaskBranch))
	if err != nil {
		return nil, "", fmt.Errorf("resolve the fetched task branch %s: %w", w.taskRef(), err)
	}
	return m, tip, nil
}

// checkAncestor applies the RX side's ancestry rule to --expected-head, in the mirror.
func (w *Writer) checkAncestor(ctx context.Context, m *mirror.Mirror, head, tip string) error {
	ok, err := m.IsAncestor(ctx, head, tip)
	if err != nil {
		return fmt.Errorf("EXPECTED_HEAD %s: the ancestry check against the task branch tip %s failed (is it a commit of this repository?): %w", head, tip, err)
	}
	if !ok {
		return fmt.Errorf("EXPECTED_HEAD %s is not an ancestor of the task branch tip %s on %s: the RX side would refuse the task", head, tip, w.taskRef())
	}
	return nil
}

// checkOverwrite refuses, unless force, to replace a file that holds a different task with no
// COMPLETE result on the result branch. It returns the TASK_ID being replaced.
func (w *Writer) checkOverwrite(path, id string, h *history, force bool) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file (%s): nothing is written through it or over it", path, fi.Mode().Type())
	}
	if fi.Size() > w.Policy.Limits.MaxTaskBytes {
		if force {
			return "", nil
		}
		return "", fmt.Errorf("%s holds %d bytes, more than a task file may: it is not overwritten without --force", path, fi.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	ids := task.PeekIDs(data)
	if len(ids) == 0 && len(strings.TrimSpace(string(data))) == 0 {
		return "", nil // empty: nothing to lose
	}
	if slices.Contains(ids, id) {
		return id, nil // the same task, written again
	}
	if force {
		return quoteIDs(ids), nil
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("%s holds something that is not a task file (no TASK_ID): it is not overwritten without --force", path)
	}
	open := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return h != nil && h.Completed(id) })
	if len(open) == 0 {
		return quoteIDs(ids), nil
	}
	why := fmt.Sprintf("no COMPLETE result for it is on %s", w.resultRef())
	if h == nil {
		why = "whether it completed could not be read"
	}
	return "", fmt.Errorf("%s holds task %s, which is not completed (%s): it is not overwritten without --force", path, quoteIDs(open), why)
}

func (w *Writer) taskRef() string   { return w.Policy.Repo.Remote + "/" + w.Policy.Repo.TaskBranch }
func (w *Writer) resultRef() string { return w.Policy.Repo.Remote + "/" + w.Policy.Repo.ResultBranch }

// quoteIDs shows IDs read from a file, quoted (so escapes are visible) when they are not plain.
func quoteIDs(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id
		if strings.ContainsFunc(id, func(r rune) bool { return !unicode.IsPrint(r) || r == ' ' }) {
			out[i] = strconv.Quote(id)
		}
	}
	return strings.Join(out, ", ")
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ba
}

func refusedFormat(errs []error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "task new refused, nothing written (%d reason", len(errs))
	if len(errs) != 1 {
		b.WriteByte('s')
	}
	b.WriteString("):")
	for _, e := range errs {
		b.WriteString("\n  - " + strings.ReplaceAll(e.Error(), "\n", "\n    "))
	}
	return b.String()
}
