package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/result"
	"rfhandoff/txwatch"
)

// gitRunner runs git only, over the sandbox remote's transport only.
func (sb *Sandbox) gitRunner(audit string, tools map[exec.Tool]string, timeout time.Duration) (*exec.Stack, error) {
	log, err := exec.OpenAuditLog(audit)
	if err != nil {
		return nil, err
	}
	return exec.New(exec.Options{Role: exec.RoleGit, Audit: log, Tools: tools,
		GitProtocols: []string{"file"}, Environ: sb.env, DefaultTimeout: timeout})
}

// remoteResult reads the result at the tip of n's result branch straight
// from the bare repository, the demo's view as the referee. It returns nil
// while there is none.
func (d *runner) remoteResult(ctx context.Context, n *rxNode) (*result.Result, string, error) {
	g := &gitcli.Client{R: d.sb.Setup, Dir: d.sb.Remote}
	commit, err := g.ResolveCommit(ctx, "refs/heads/"+n.Branch)
	if err != nil {
		return nil, "", err
	}
	path := strings.TrimSuffix(config.Default().Repo.ResultDir, "/") + "/RX_RESULT.json"
	data, err := g.ShowFile(ctx, commit, path, result.MaxBytes)
	if errors.Is(err, gitcli.ErrNotFound) {
		return nil, commit, nil
	}
	if err != nil {
		return nil, commit, err
	}
	opts := result.Options{TaskID: taskID, Node: n.Name}
	if d.sb.Sync != "" {
		opts.SyncMode, opts.StartAt = result.SyncMode(d.sb.Sync), d.startAt
	}
	r, err := result.Decode(data, opts)
	if err != nil {
		return nil, commit, fmt.Errorf("the result at %s commit %s: %w", n.Branch, short(commit), err)
	}
	return r, commit, nil
}

func (d *runner) resultLog(ctx context.Context, branch string) ([]string, error) {
	out, err := d.sb.git(ctx, d.sb.Remote, "log", "--format=%h %an: %s%n%(trailers:key=Audit-Chain-Head)", "--end-of-options", "refs/heads/"+branch)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, "Audit-Chain-Head:"):
			// The remote witnesses the RX audit log (PROTOCOL#audit-log).
			lines = append(lines, "        "+l)
		default:
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// recordName is an authorization record of the demo task (txwatch's
// naming: <TASK_ID>-<first 12 hex of the result digest>.json).
var recordName = regexp.MustCompile(`^` + taskID + `-[0-9a-f]{12}\.json$`)

// findRecord returns the demo task's authorization record, "" while none.
func (d *runner) findRecord() (string, error) {
	store, err := txwatch.StoreOf(d.sb.mainPol)
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(store.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && recordName.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	switch len(names) {
	case 0:
		return "", nil
	case 1:
		return store.Path(names[0]), nil
	}
	return "", fmt.Errorf("more than one authorization record in %s: %v", store.Dir, names)
}
