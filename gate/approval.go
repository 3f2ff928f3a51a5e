package gate

import (
	"fmt"
)

// ApproveAnswer approves a task at the RX prompt; RED needs a phrase after it.
const ApproveAnswer = "A"

// TXPhrase approves anything involving RF TX, on both sides.
const TXPhrase = "AUTHORIZE RF TX"

// RequiredPhrase returns the phrase that must follow ApproveAnswer, if
// any. RF TX always needs TXPhrase; an invalid level counts as RED so that
// a bug upstream demands more, never less.
func RequiredPhrase(level Level, rfTX bool, taskID string) (phrase string, needed bool) {
	switch {
	case rfTX:
		return TXPhrase, true
	case level == Green || level == Yellow:
		return "", false
	default:
		return "AUTHORIZE " + taskID, true
	}
}

// DescribeApproval says in one line what approves a task.
func DescribeApproval(level Level, rfTX bool, taskID string) string {
	phrase, needed := RequiredPhrase(level, rfTX, taskID)
	if !needed {
		return ApproveAnswer
	}
	return fmt.Sprintf("%s, then exactly %q", ApproveAnswer, phrase)
}

// CheckRequiresApproval allows REQUIRES_APPROVAL = NO only at GREEN (the
// operator still answers the prompt).
func CheckRequiresApproval(requires bool, effective Level) error {
	if requires || effective == Green {
		return nil
	}
	return &approvalRequiredError{Level: effective}
}

type approvalRequiredError struct{ Level Level }

func (e *approvalRequiredError) Error() string {
	return fmt.Sprintf("NO is allowed only at GREEN; the effective level is %s", e.Level)
}
