package hackrfcli

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	"rfhandoff/exec"
)

// Receive is a running hackrf_transfer -r.
type Receive struct {
	proc    exec.Process
	lw      *lineWriter
	started time.Time

	mu    sync.Mutex
	stats TransferStats
}

// ReceiveResult is how a receive ended.
type ReceiveResult struct {
	Pid        int
	Argv       []string // as executed, argv[0] the resolved tool path
	ExitCode   int      // -1 when ended by a signal
	Signal     string   // the signal that ended the process, if any
	Duration   time.Duration
	Stats      TransferStats
	StderrTail []byte // the last few KiB of stderr, for error reports
}

// StartReceive validates p and starts hackrf_transfer -r. Every stderr line
// is folded into the stats and handed to onLine, if not nil, from the
// runner's output goroutine: keep it short.
func (c *Client) StartReceive(ctx context.Context, p RxParams, onLine func(TransferEvent)) (*Receive, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if c.R == nil {
		return nil, errors.New("hackrfcli: Client has no Runner")
	}
	r := &Receive{started: time.Now()}
	r.lw = &lineWriter{fn: func(line string) {
		r.mu.Lock()
		ev := r.stats.AddLine(line)
		r.mu.Unlock()
		if onLine != nil {
			onLine(ev)
		}
	}}
	proc, err := c.R.Start(ctx, exec.Cmd{Tool: exec.HackRFTransfer, Args: p.argv(), Stderr: r.lw})
	if err != nil {
		return nil, err
	}
	r.proc = proc
	return r, nil
}

func (r *Receive) Pid() int { return r.proc.Pid() }

// Interrupt sends SIGINT, which hackrf_transfer answers with its clean end
// ("Caught signal 2", "Exiting...", exit 0).
func (r *Receive) Interrupt() error { return r.proc.Interrupt() }

func (r *Receive) Stats() TransferStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats.clone()
}

// Wait waits for the tool to end; the result is filled in every case.
func (r *Receive) Wait() (ReceiveResult, error) {
	res, err := r.proc.Wait()
	r.lw.Flush()
	out := ReceiveResult{
		Pid:        r.proc.Pid(),
		Argv:       res.Argv,
		ExitCode:   res.ExitCode,
		Signal:     res.Signal,
		Duration:   cmp.Or(res.Duration, time.Since(r.started)),
		Stats:      r.Stats(),
		StderrTail: res.Stderr,
	}
	return out, endError(err, out.Stats, res.ExitCode)
}

// endError is the runner's error, if any, or catches the exit-0 quirk:
// getopt errors print the usage and exit 0.
func endError(err error, s TransferStats, exitCode int) error {
	if err != nil || exitCode != 0 || s.Finished {
		return err
	}
	msg := "exited 0 without its end-of-run sequence"
	if len(s.Errors) > 0 {
		msg = s.Errors[0]
	}
	return usageError(toolTransfer, exitCode, msg)
}
