package hackrfcli

import (
	"context"
	"errors"
	"time"

	"rfhandoff/exec"
	"rfhandoff/ident"
)

// Client runs the HackRF tools through an exec.Runner.
type Client struct {
	R exec.Runner
	// Timeout bounds hackrf_info and hackrf_clock (0: the runner's
	// default); Transmit uses at least the transmission's length plus a margin.
	Timeout time.Duration
	Serial  string // selects the board for hackrf_clock; hackrf_info lists all
}

// Info runs hackrf_info and parses its output.
func (c *Client) Info(ctx context.Context) (Info, error) {
	res, err := c.run(ctx, exec.Cmd{Tool: exec.HackRFInfo, Timeout: c.Timeout})
	if err != nil {
		return Info{}, err
	}
	info, err := ParseInfo(res.Stdout, res.Stderr, res.ExitCode)
	info.Path = res.Path
	return info, err
}

func (c *Client) Clock(ctx context.Context) (ClockStatus, error) {
	args := []string{"-i"}
	if c.Serial != "" {
		if !ident.Serial.MatchString(c.Serial) {
			return ClockUnknown, fieldError("Client.Serial", c.Serial, "must be 1–32 lowercase hex digits")
		}
		args = append(args, "-d", c.Serial)
	}
	res, err := c.run(ctx, exec.Cmd{Tool: exec.HackRFClock, Args: args, Timeout: c.Timeout})
	if err != nil {
		return ClockUnknown, err
	}
	return ParseClock(res.Stdout, res.Stderr, res.ExitCode)
}

// run runs a short tool. A plain non-zero exit is not an error here: the
// parsers know what each exit code means for each tool.
func (c *Client) run(ctx context.Context, cmd exec.Cmd) (exec.Result, error) {
	if c.R == nil {
		return exec.Result{}, errors.New("hackrfcli: Client has no Runner")
	}
	res, err := c.R.Run(ctx, cmd)
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || ee.Signal != "") {
		return res, err
	}
	return res, nil
}
