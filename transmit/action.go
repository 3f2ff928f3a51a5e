package transmit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/hackrfcli"
	"rfhandoff/txwatch"
)

// run is step 5, after the record was marked used.
func (x *Executor) run(ctx context.Context, store txwatch.Store, name string, rec txwatch.Record, txp *hackrfcli.TxParams) (txwatch.Outcome, string, error) {
	o := txwatch.Outcome{
		Record: name, TaskID: rec.TaskID, ResultCommit: rec.ResultCommit, ResultSHA256: rec.ResultSHA256,
		Action: x.Policy.TX.Action, Argv: []string{},
	}
	if o.Action != config.TXActionHackRFTransfer {
		// fake: opens nothing, runs nothing, and says so.
		now := x.now()
		code := 0
		o.StartedAt, o.EndedAt, o.ExitCode = now, &now, &code
		path, err := store.WriteOutcome(name, o)
		if err != nil {
			return o, path, actionFailed(path, err)
		}
		x.say("fake action done: RF TX = 0 (nothing was opened or sent); outcome %s", path)
		return o, path, nil
	}
	if txp == nil {
		return o, "", errors.New("txwatch: hackrf_transfer without parameters")
	}

	// A provisional outcome first: should this process die mid-transmission,
	// the file already says a transmission may have happened.
	o.StartedAt = x.now()
	o.RFTXStarted, o.RFTX = true, 1
	o.Argv = append([]string{"hackrf_transfer"}, txp.Argv()...)
	path, err := store.WriteOutcome(name, o)
	if err != nil {
		o.StartedAt, o.RFTXStarted, o.RFTX = time.Time{}, false, 0
		return o, path, actionFailed(path, fmt.Errorf("writing the provisional outcome, so nothing was started: %w", err))
	}
	x.say("starting hackrf_transfer %v", txp.Argv())
	client := hackrfcli.Client{R: x.Runner}
	res, terr := client.Transmit(ctx, *txp)
	ended := x.now()
	o.EndedAt = &ended
	// Only a process that never started is certain not to have sent anything.
	if res.Pid == 0 && terr != nil {
		o.RFTX = 0
	}
	if res.Pid > 0 && res.Signal == "" {
		code := res.ExitCode
		o.ExitCode = &code
	}
	o.Signal = res.Signal
	if terr != nil {
		o.Error = terr.Error()
	}
	if _, err := store.WriteOutcome(name, o); err != nil {
		terr = errlist.Join(terr, fmt.Errorf("writing the outcome: %w", err))
	}
	if terr != nil {
		return o, path, actionFailed(path, terr)
	}
	x.say("hackrf_transfer finished (exit %d): RF TX = %d; outcome %s", res.ExitCode, o.RFTX, path)
	return o, path, nil
}
