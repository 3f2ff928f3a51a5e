package gitcli

import (
	"cmp"
	"context"
	"errors"
	"io"
	"time"

	"rfhandoff/exec"
)

// Client runs git in one repository directory through an exec.Runner.
type Client struct {
	R   exec.Runner
	Dir string // working directory of every call (the checkout or clone)
	// Timeout bounds each call (0: the runner's default).
	Timeout time.Duration
	// Identity is the author and committer of Commit (commitIdentity when zero).
	Identity Identity
	// Env is added to every call's environment (a mirror sets GIT_DIR so
	// that git never discovers another repository above it).
	Env      []string
	Promisor *Promisor // set when Dir is a partial clone (the mirror)
	// SigningKey, when set, makes Commit sign with this SSH key file (a
	// public key needs its private half in ssh-agent).
	SigningKey string
	RemoteURLs map[string]string // by remote name, RemoteURL's answers already read
	Ignored    *IgnoredDirs      // when set, remembers what RequireIgnored confirmed
	// URL is the remote's URL, checked with RemoteURL: each call to the
	// remote names it on its audit line (exec.Cmd.Remote).
	URL string
	// Guard, when set, is asked before every git call; an error refuses
	// the call (the mirror checks that its config is still its own).
	Guard func() error
}

type call struct {
	stdin      io.Reader
	env        []string
	maxOutput  int64
	dir        string // overrides Client.Dir
	remote     string // overrides Client.URL (a clone names its URL)
	sig        *exec.Signatures
	deferCheck bool // exec.Cmd.DeferObjectCheck (Promisor.ChecksObjects)
}

// run returns the exec error unchanged: each operation reads the exit
// code its command documents.
func (c *Client) run(ctx context.Context, args []string, o call) (exec.Result, error) {
	if c.Guard != nil {
		if err := c.Guard(); err != nil {
			return exec.Result{}, err
		}
	}
	remote := ""
	if len(args) > 0 && remoteSubcommands[args[0]] {
		remote = cmp.Or(o.remote, c.URL)
	}
	return c.R.Run(ctx, exec.Cmd{
		Tool:       exec.Git,
		Args:       args,
		Dir:        cmp.Or(o.dir, c.Dir),
		Env:        append(append([]string(nil), c.Env...), o.env...),
		Stdin:      o.stdin,
		Timeout:    c.Timeout,
		MaxOutput:  o.maxOutput,
		Signatures: o.sig,
		Remote:     remote,

		DeferObjectCheck: o.deferCheck,
	})
}

func (c *Client) do(ctx context.Context, op string, args []string, o call) error {
	if _, err := c.run(ctx, args, o); err != nil {
		return &opError{Op: op, Err: err}
	}
	return nil
}

// output runs git and parses its stdout; either failing is an *opError of op.
func output[T any](ctx context.Context, c *Client, op string, args []string, o call, parse func([]byte) (T, error)) (T, error) {
	var zero T
	res, err := c.run(ctx, args, o)
	if err != nil {
		return zero, &opError{Op: op, Err: err}
	}
	v, err := parse(res.Stdout)
	if err != nil {
		return zero, &opError{Op: op, Err: err}
	}
	return v, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// remoteSubcommands talk to a remote: their audit line names its URL.
var remoteSubcommands = map[string]bool{"fetch": true, "ls-remote": true, "push": true, "clone": true}

// exitCode is the exit status of a git that ran and failed; false for
// every other error (refused, timed out, not installed, ...).
func exitCode(err error) (int, bool) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return 0, false // an interrupted git's exit code means nothing
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Signal == "" {
		return ee.Code, true
	}
	return 0, false
}

// exitBool maps git's exit codes yes and no to a boolean, else an *opError.
func (c *Client) exitBool(ctx context.Context, op string, args []string, yes, no int) (bool, error) {
	_, err := c.run(ctx, args, call{})
	if err == nil {
		return yes == 0, nil
	}
	if code, ok := exitCode(err); ok {
		switch code {
		case yes:
			return true, nil
		case no:
			return false, nil
		}
	}
	return false, &opError{Op: op, Err: err}
}
