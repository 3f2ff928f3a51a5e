package gitcli

import (
	"context"
	"testing"

	"rfhandoff/exec"
)

// fakeRunner records commands and answers them from a script. It exists to
// assert argv (and that nothing ran at all); behaviour is tested against
// real git.
type fakeRunner struct {
	t       *testing.T
	calls   []exec.Cmd
	replies []fakeReply
}

type fakeReply struct {
	res exec.Result
	err error
}

func (f *fakeRunner) Run(_ context.Context, c exec.Cmd) (exec.Result, error) {
	f.calls = append(f.calls, c)
	if len(f.replies) == 0 {
		return exec.Result{}, nil
	}
	r := f.replies[0]
	f.replies = f.replies[1:]
	return r.res, r.err
}

func (f *fakeRunner) Start(context.Context, exec.Cmd) (exec.Process, error) {
	f.t.Fatal("gitcli never starts long-running processes")
	return nil, nil
}

func (f *fakeRunner) argv() [][]string {
	var out [][]string
	for _, c := range f.calls {
		out = append(out, c.Args)
	}
	return out
}

func ok(stdout string) fakeReply {
	return fakeReply{res: exec.Result{Stdout: []byte(stdout)}}
}
