package txwatch

import (
	"fmt"

	"rfhandoff/exec"
)

// PhraseTries is how often tx watch asks for the phrase in one offer
// (PROTOCOL#main-pc): a typo is not fatal, guessing is bounded.
const PhraseTries = 3

// Decide writes d as one of this side's decision lines (PROTOCOL#audit-log);
// with no audit log it records nothing.
func Decide(l *exec.AuditLog, d exec.Decision) error {
	if l == nil {
		return nil
	}
	d.Side = exec.SideTX
	if err := l.RecordDecision(d); err != nil {
		return fmt.Errorf("cannot record the decision (%s) in the audit log: %w", d.Kind, err)
	}
	return nil
}

// offer is what tx watch's decision lines say of one offer.
type offer struct {
	what string // for the operator: "result 0123456789ab"
	base exec.Decision
}

func (o offer) line(kind, reason string) exec.Decision {
	d := o.base
	d.Kind, d.Reason = kind, reason
	return d
}

func offerOf(taskID string, bound []NodeBinding) offer {
	d := exec.Decision{Command: "tx watch", TaskID: taskID, ResultSHA256: SetDigest(bound), Nodes: NodeNames(bound)}
	if d.Nodes == nil {
		d.ResultCommit = bound[0].ResultCommit
		return offer{what: "result " + short(d.ResultSHA256), base: d}
	}
	return offer{what: "the nodes' READYs " + short(d.ResultSHA256), base: d}
}
