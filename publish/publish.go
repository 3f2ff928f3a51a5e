package publish

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/result"
)

// The two files written under the policy's result_dir.
const (
	JSONName     = "RX_RESULT.json"
	MarkdownName = "RX_RESULT.md"
)

// AuditTrailer is the commit trailer naming the audit chain's head (PROTOCOL#audit-log).
const AuditTrailer = "Audit-Chain-Head"

type Deps struct {
	Git          *gitcli.Client // the RX checkout (source): read, never changed (the task is read through the RX mirror)
	Runner       exec.Runner    // runs git for the temporary clone (nil: Git.R)
	Policy       config.Policy
	StateDir     string         // resolved state directory holding rx_agent_state.json
	Audit        *exec.AuditLog // its head goes into the Audit-Chain-Head trailer
	ResultBranch string         // "" = the policy's result_branch (--result-branch)
	Notes        []string       // extra paragraphs for RX_RESULT.md (e.g. the quick-look detector's)
	Logger       *slog.Logger   // nil: discard
}

type Outcome struct {
	Commit   string // now on the result branch: the one pushed, or the tip that already held the files
	NoOp     bool   // the branch already held exactly these files: nothing committed or pushed
	Attempts int    // fresh clones, 1 unless the branch moved meanwhile
}

func (d Deps) runner() exec.Runner {
	if d.Runner != nil {
		return d.Runner
	}
	return d.Git.R
}

func (d Deps) logger() *slog.Logger {
	if d.Logger != nil {
		return d.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (d Deps) validate() error {
	var missing []string
	if d.Git == nil || d.Git.R == nil {
		missing = append(missing, "Git")
	}
	if d.Audit == nil {
		missing = append(missing, "Audit")
	}
	if d.StateDir == "" {
		missing = append(missing, "StateDir")
	}
	if len(missing) > 0 {
		return fmt.Errorf("publish: missing %s", strings.Join(missing, ", "))
	}
	return nil
}

// Publish runs the seven checks of PROTOCOL#publishing and, when they pass, commits
// RX_RESULT.json (the exact bytes of data) and the rendered RX_RESULT.md to the result branch
// from check 6's clone, starting again from a new one when the branch moved under the push, up
// to the policy's publish_attempts. A result already on the branch byte for byte is a no-op.
func Publish(ctx context.Context, d Deps, data []byte) (Outcome, error) {
	if err := d.validate(); err != nil {
		return Outcome{}, err
	}
	pr := prepare(ctx, d)
	defer pr.close()
	return publishPrepared(ctx, d, pr, data)
}

// Prepared is a publish whose git reads (the task, HEAD, check 6's clone) started before its
// result is known, as rx capture starts READY's while it confirms the capture
// (PROTOCOL#capture). The checks are decided only in Publish, in order.
type Prepared struct {
	d    Deps
	pr   *prepared
	used bool
}

// Prepare starts a publish's git reads. Close must be called whatever happens; Publish once.
func Prepare(ctx context.Context, d Deps) (*Prepared, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	return &Prepared{d: d, pr: prepare(ctx, d)}, nil
}

func (p *Prepared) Publish(ctx context.Context, data []byte) (Outcome, error) {
	if p.used {
		return Outcome{}, errors.New("publish: a prepared publish was already used")
	}
	p.used = true
	return publishPrepared(ctx, p.d, p.pr, data)
}

// Close waits for the reads and removes check 6's clone.
func (p *Prepared) Close() { p.pr.close() }

func publishPrepared(ctx context.Context, d Deps, pr *prepared, data []byte) (Outcome, error) {
	log := d.logger()
	c, err := check(ctx, d, pr, data)
	if err != nil {
		return Outcome{}, err
	}
	files, err := render(d, c.res, data)
	if err != nil {
		return Outcome{}, err
	}
	attempts := max(d.Policy.Limits.PublishAttempts, 1)
	var last error
	for n := 1; n <= attempts; n++ {
		if err := ctx.Err(); err != nil {
			return Outcome{Attempts: n - 1}, err
		}
		clone := c.clone
		if n > 1 {
			// The branch moved: start again from a fresh clone.
			var rm func()
			clone, rm, err = freshClone(ctx, d, c.url, c.branch)
			defer rm()
			if err != nil {
				return Outcome{Attempts: n}, err
			}
		}
		out, err := attempt(ctx, d, c, clone, files)
		out.Attempts = n
		var pr *gitcli.PushRejectedError
		if errors.As(err, &pr) && pr.Moved {
			last = err
			log.Warn("result branch moved during the push; starting again from a fresh clone",
				"branch", c.branch, "attempt", n, "of", attempts)
			continue
		}
		if err != nil {
			return out, err
		}
		if out.NoOp {
			log.Debug("result already published (identical)", "task_id", c.res.TaskID, "state", c.res.State, "commit", out.Commit)
		} else {
			log.Debug("result published", "task_id", c.res.TaskID, "state", c.res.State,
				"branch", c.branch, "commit", out.Commit, "attempt", n)
		}
		return out, nil
	}
	// Every attempt found the branch moved under it (another push landed between clone and push).
	return Outcome{Attempts: attempts}, fmt.Errorf("gave up after %d attempts: the result branch kept moving: %w", attempts, last)
}

// render builds the JSON as given and the Markdown rendered from it, each within the size limit.
func render(d Deps, r *result.Result, data []byte) ([]file, error) {
	dir := d.Policy.Repo.ResultDir
	if err := gitcli.ValidRepoPath(dir); err != nil {
		return nil, fmt.Errorf("policy repo.result_dir: %w", err)
	}
	files := []file{
		{path: path.Join(dir, JSONName), data: data},
		{path: path.Join(dir, MarkdownName), data: result.RenderMarkdown(r, d.Notes...)},
	}
	for _, f := range files {
		if len(f.data) > result.MaxBytes {
			return nil, fmt.Errorf("%s would be %d bytes, more than the limit of %d", f.path, len(f.data), result.MaxBytes)
		}
	}
	return files, nil
}
