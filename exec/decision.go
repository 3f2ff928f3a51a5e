package exec

import (
	"errors"
	"time"
)

// EventDecision is the audit line of a person's decision, or of what it
// caused (PROTOCOL#audit-log), chained with the git calls that carried it.
const EventDecision = "decision"

// The decision kinds; PROTOCOL#audit-log lists the fields each one carries.
const (
	// RX side: the approval prompt.
	DecisionTaskShown       = "task_shown"       // the approval prompt shows a task
	DecisionTaskApproved    = "task_approved"    // the approval is recorded
	DecisionTaskDeferred    = "task_deferred"    // [D]
	DecisionTaskStopped     = "task_stopped"     // [S], end of input, a signal at the prompt
	DecisionApprovalRefused = "approval_refused" // wrong phrase, no terminal, a changed task
	// rx capture found the simulator; Verdict: did allow_simulator let it (PROTOCOL#simulator).
	DecisionCaptureSimulator = "capture_simulator"

	// MAIN side: tx watch's offer and tx execute's phrase.
	DecisionOffer          = "offer"           // a READY (or a set of nodes' READYs) is offered
	DecisionPhraseAccepted = "phrase_accepted" // the exact phrase
	DecisionPhraseRefused  = "phrase_refused"  // anything else typed (never what), or no answer
	DecisionOfferEnded     = "offer_ended"     // an offer ended without a record
	DecisionRecordWritten  = "record_written"  // an authorization record was issued

	// MAIN side: tx execute.
	DecisionExecuteCheck  = "execute_check"  // one step's verdict: record, quick checks, re-check, mark used
	DecisionActionStarted = "action_started" // the [tx] action starts
	DecisionActionOutcome = "action_outcome" // what the action did
)

// Side is a decision line's "role": a label that permits nothing.
type Side string

const (
	SideRX Side = "rx"
	SideTX Side = "tx"
)

// Verdicts of a DecisionExecuteCheck line.
const (
	VerdictPassed  = "passed"
	VerdictRefused = "refused"
)

// Decision is what the audit log keeps of one decision (PROTOCOL#audit-log),
// never what a person typed, a key, a token or a secret.
type Decision struct {
	Side    Side   // SideRX or SideTX
	Kind    string // one of the Decision* kinds
	Command string // "rx approve", "rx watch", "tx watch", "tx execute"

	TaskID     string
	Level      string // the task's effective risk level
	TaskSHA256 string // the digest an approval binds
	TaskCommit string

	ResultCommit string
	ResultSHA256 string   // for several nodes: the set digest (PROTOCOL#several-nodes)
	Nodes        []string // the nodes of a set, in RX_NODES order

	Record       string // an authorization record's file name
	RecordSHA256 string
	ExpiresAt    time.Time // an offer's deadline, or a record's expires_at
	TriesLeft    *int      // a refused phrase at tx watch: the tries left

	Check   string // DecisionExecuteCheck: which step
	Verdict string // DecisionExecuteCheck: VerdictPassed or VerdictRefused
	Reason  string // why: a refusal, an offer's end, a stop

	Action   string // the [tx] action
	RFTX     *int   // an outcome's rf_tx
	ExitCode *int   // an outcome's exit code
	Signal   string
	Error    string
	Outcome  string // the outcome file's name

	Simulated bool // about a capture by the HackRF simulator
}

// RecordDecision appends one decision line and returns once it is on
// disk. A caller writes it before the decision takes effect, and gives the
// effect up when it cannot: no line, no effect.
func (l *AuditLog) RecordDecision(d Decision) error {
	if l == nil {
		return errors.New("no audit log to record the decision in")
	}
	if d.Kind == "" {
		return errors.New("a decision line needs its kind")
	}
	e := Entry{
		Event: EventDecision, ID: newID(), Role: string(d.Side),
		Kind: d.Kind, Command: d.Command,
		TaskID: d.TaskID, Level: d.Level, TaskSHA256: d.TaskSHA256, TaskCommit: d.TaskCommit,
		ResultCommit: d.ResultCommit, ResultSHA256: d.ResultSHA256, Nodes: d.Nodes,
		Record: d.Record, RecordSHA256: d.RecordSHA256, TriesLeft: d.TriesLeft,
		Check: d.Check, Verdict: d.Verdict, Reason: redactString(d.Reason, nil),
		Action: d.Action, RFTX: d.RFTX, ExitCode: d.ExitCode, Signal: d.Signal,
		Error: redactString(d.Error, nil), Outcome: d.Outcome, Simulated: d.Simulated,
	}
	if !d.ExpiresAt.IsZero() {
		t := d.ExpiresAt.UTC()
		e.ExpiresAt = &t
	}
	_, err := l.Append(e)
	return err
}
