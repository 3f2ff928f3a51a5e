package main

import (
	"cmp"
	"errors"
	"fmt"

	"rfhandoff/errlist"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/hiddentext"
	"rfhandoff/mirror"
	"rfhandoff/publish"
)

// AuditVerifyCmd checks the audit log's hash chain; with --remote also
// against the chain heads the result branch witnesses (PROTOCOL#audit-log).
type AuditVerifyCmd struct {
	Remote       bool   `help:"Also fetch the result branch through the RX mirror and check that the log holds every chain head its commits name (Audit-Chain-Head trailers): a log rewritten, truncated or replaced before a pushed head fails. Run it on the RX side."`
	ResultBranch string `name:"result-branch" placeholder:"NAME" help:"With --remote: the result branch (default: the policy's repo.result_branch)."`
}

type witness struct{ commit, head string }

func (c *AuditVerifyCmd) Run(app *App) error {
	if c.ResultBranch != "" && !c.Remote {
		return exitCode(2, errors.New("--result-branch is for --remote"))
	}
	path, err := auditPath(app)
	if err != nil {
		return err
	}
	var heads, malformed []witness
	var where string
	if c.Remote {
		if heads, malformed, where, err = c.witnessed(app); err != nil {
			return err
		}
	}
	wanted := make([]string, len(heads))
	for i, w := range heads {
		wanted[i] = w.head
	}
	st, err := exec.VerifyAuditLog(path, wanted...)
	if _, broken := errors.AsType[*exec.ChainError](err); err != nil && !broken {
		return noAuditLog(path, err)
	}
	if err == nil {
		fmt.Fprintf(app.Stdout, "%s: intact, %d lines, head %s\n", path, st.Lines, st.Head)
	}
	if c.Remote { // every reason at once: the broken line and the missing heads
		err = errlist.List(err, c.report(app, path, where, st, heads, malformed))
	}
	if err != nil {
		return exitCode(1, err)
	}
	return nil
}

// witnessed fetches the result branch into the RX mirror (never forced: a
// rewritten branch is refused) and reads its Audit-Chain-Head trailers.
func (c *AuditVerifyCmd) witnessed(app *App) (heads, malformed []witness, where string, err error) {
	p := app.Policy
	branch := cmp.Or(c.ResultBranch, p.Repo.ResultBranch)
	if err := gitcli.ValidBranch(branch); err != nil {
		return nil, nil, "", err
	}
	where = p.Repo.Remote + "/" + branch
	r, err := app.Stack(exec.RoleGit)
	if err != nil {
		return nil, nil, "", err
	}
	m, err := mirror.ForRX(app.Ctx, app.Git(r), p, app.Logger)
	if err != nil {
		return nil, nil, "", err
	}
	up, err := m.FetchBranchUpdated(app.Ctx, p.Repo.Remote, branch)
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading the chain heads witnessed on %s: %w", where, err)
	}
	tip := up.Tip
	if tip == "" {
		if tip, err = m.ResolveCommit(app.Ctx, "refs/remotes/"+where); err != nil {
			return nil, nil, "", err
		}
	}
	list, err := m.TrailerValues(app.Ctx, tip, publish.AuditTrailer)
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading the chain heads witnessed on %s: %w", where, err)
	}
	for _, ct := range list {
		for _, v := range ct.Values {
			w := witness{commit: ct.Commit, head: v}
			if exec.ValidChainHash(v) {
				heads = append(heads, w)
			} else {
				malformed = append(malformed, w)
			}
		}
	}
	return heads, malformed, where + " at " + tip, nil
}

// report prints what the result branch witnesses and the log holds of it.
func (c *AuditVerifyCmd) report(app *App, path, where string, st exec.VerifyStats, heads, malformed []witness) error {
	out := app.Stdout
	var missing []witness
	last := 0 // the latest line a witnessed head names
	for _, w := range heads {
		if n, ok := st.Found[w.head]; ok {
			last = max(last, n)
		} else {
			missing = append(missing, w)
		}
	}
	fmt.Fprintf(out, "%s: %d chain heads witnessed", where, len(heads))
	if len(missing) == 0 && len(heads) > 0 {
		fmt.Fprintf(out, ", every one in the log (the latest at line %d", last)
		if st.Lines > last {
			fmt.Fprintf(out, "; the %d lines after it are not witnessed yet", st.Lines-last)
		}
		fmt.Fprint(out, ")")
	}
	fmt.Fprintln(out)
	for _, w := range missing {
		fmt.Fprintf(out, "missing: commit %s names head %s, which the log does not hold\n", w.commit, w.head)
	}
	for _, w := range malformed {
		fmt.Fprintf(out, "malformed: commit %s names %s %q, which is no chain hash\n", w.commit, publish.AuditTrailer, hiddentext.SanitizeLine(w.head))
	}
	var errs []error
	if len(missing) > 0 {
		hint := "it was rewritten, truncated or replaced since those commits were pushed"
		if len(missing) == len(heads) {
			hint += " (or it is not the RX side's log: MAIN pushes nothing, so its log is witnessed nowhere)"
		}
		errs = append(errs, fmt.Errorf("%s: %d of the %d chain heads witnessed on %s are not in the log: %s",
			path, len(missing), len(heads), where, hint))
	}
	if len(malformed) > 0 {
		errs = append(errs, fmt.Errorf("%d %s trailers on %s are no chain hash: commits not written by rfhandoff", len(malformed), publish.AuditTrailer, where))
	}
	return errlist.Join(errs...)
}
