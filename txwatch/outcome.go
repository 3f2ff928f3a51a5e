package txwatch

import "time"

// Outcome is <record name>.outcome.json, what tx execute did with a record.
// RFTX is 1 once a hackrf_transfer process started, whatever its exit code:
// a transfer that failed half-way may have sent samples.
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
