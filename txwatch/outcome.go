package txwatch

import "time"

// Outcome is <record name>.outcome.json, what tx execute did with a record.
//
// RFTXStarted is true once the executor handed the transmission to
// hackrf_transfer (the provisional outcome written just before says so
// too, so a crash mid-transmission never leaves "nothing started"); it is
// false for the fake action.
//
// RFTX is 1 when a hackrf_transfer process was started, whatever its exit
// code: a transfer that failed half-way may still have sent samples, so
// only "no transmitting process ever ran" earns a 0. The fake action opens
// nothing and writes 0. A refused or missing tool (never started) is 0.
type Outcome struct {
	Record       string     `json:"record"`
	TaskID       string     `json:"task_id"`
	ResultCommit string     `json:"result_commit"`
	ResultSHA256 string     `json:"result_sha256"`
	Action       string     `json:"action"`
	RFTXStarted  bool       `json:"rf_tx_started"`
	RFTX         int        `json:"rf_tx"`
	StartedAt    time.Time  `json:"started_at"`
	EndedAt      *time.Time `json:"ended_at"`  // null while hackrf_transfer runs
	ExitCode     *int       `json:"exit_code"` // null while running, or when killed or never started
	Signal       string     `json:"signal"`
	Argv         []string   `json:"argv"` // the hackrf_transfer argv; empty for fake
	Error        string     `json:"error"`
}
