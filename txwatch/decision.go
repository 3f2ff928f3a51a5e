package txwatch

import (
	"fmt"

	"rfhandoff/exec"
	"rfhandoff/result"
)

// PhraseTries is how many times tx watch asks for the phrase within one
// offer (PROTOCOL#main-pc): a typo is not fatal, guessing is bounded, and the
// READY's own deadline still ends the offer first.
const PhraseTries = 3

// decide writes d as one of this side's decision lines (PROTOCOL#audit-log). With
// no audit log (a library caller without one) it records nothing.
func decide(l *exec.AuditLog, d exec.Decision) error {
	if l == nil {
		return nil
	}
	d.Side = exec.SideTX
	if err := l.RecordDecision(d); err != nil {
		return fmt.Errorf("cannot record the decision (%s) in the audit log: %w", d.Kind, err)
	}
	return nil
}

// offer is what tx watch's decision lines say of one offer: the task and
// the result (or, for several nodes, the set digest and the nodes).
type offer struct {
	what string // for the operator: "result 0123456789ab"
	base exec.Decision
}

// line is the offer's decision line of kind, with reason.
func (o offer) line(kind, reason string) exec.Decision {
	d := o.base
	d.Kind, d.Reason = kind, reason
	return d
}

func singleOffer(taskID string, snap Snapshot) offer {
	return offer{what: "result " + short(snap.Digest), base: exec.Decision{
		Command: "tx watch", TaskID: taskID, ResultCommit: snap.Commit, ResultSHA256: snap.Digest,
	}}
}

func nodesOffer(taskID, set string, vs []*nodeView) offer {
	var nodes []string
	for _, v := range vs {
		nodes = append(nodes, v.node.Name)
	}
	return offer{what: "the nodes' READYs " + short(set), base: exec.Decision{
		Command: "tx watch", TaskID: taskID, ResultSHA256: set, Nodes: nodes,
	}}
}

// recordLine is the record_written line of rec, written before the record
// is: its name and the SHA-256 of the bytes Store.Create will write.
func recordLine(o offer, rec Record) (exec.Decision, error) {
	data, err := encodeRecord(rec)
	if err != nil {
		return exec.Decision{}, err
	}
	d := o.line(exec.DecisionRecordWritten, "")
	d.Record, d.RecordSHA256, d.ExpiresAt = RecordName(rec.TaskID, rec.ResultSHA256), result.SHA256(data), rec.ExpiresAt
	return d, nil
}
