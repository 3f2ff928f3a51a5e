package hackrfcli

import (
	"context"
	"errors"
	"time"

	"rfhandoff/exec"
)

// txMargin covers start-up and the final flush beyond the samples' length.
const txMargin = 30 * time.Second

// TransmitResult is how a transmission ended.
type TransmitResult struct {
	Pid      int
	Argv     []string
	ExitCode int
	Signal   string
	Duration time.Duration
	Stats    TransferStats
}

// Transmit validates p and runs a bounded hackrf_transfer -t to its end.
// The runner must have been built for the TX role; the RX role refuses -t.
func (c *Client) Transmit(ctx context.Context, p TxParams) (TransmitResult, error) {
	if err := p.Validate(); err != nil {
		return TransmitResult{}, err
	}
	if c.R == nil {
		return TransmitResult{}, errors.New("hackrfcli: Client has no Runner")
	}
	var stats TransferStats
	lw := &lineWriter{fn: func(line string) { stats.AddLine(line) }}
	timeout := max(p.duration()+txMargin, c.Timeout)
	res, err := c.R.Run(ctx, exec.Cmd{Tool: exec.HackRFTransfer, Args: p.Argv(), Stderr: lw, Timeout: timeout})
	lw.Flush()
	out := TransmitResult{
		Pid: res.Pid, Argv: res.Argv, ExitCode: res.ExitCode, Signal: res.Signal,
		Duration: res.Duration, Stats: stats.clone(),
	}
	return out, endError(err, out.Stats, res.ExitCode)
}
