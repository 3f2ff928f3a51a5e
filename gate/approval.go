package gate

import (
	"fmt"
)

// ApproveAnswer is the answer that approves a task at the RX prompt. Every
// level needs it; RED needs a phrase after it.
const ApproveAnswer = "A"

// TXPhrase is the exact phrase that approves anything involving RF TX, on the
// RX prompt and on the MAIN PC alike.
const TXPhrase = "AUTHORIZE RF TX"

// taskPhrase is the phrase that approves a RED task without RF TX.
func taskPhrase(taskID string) string { return "AUTHORIZE " + taskID }

// RequiredPhrase returns the phrase that must follow ApproveAnswer, and
// whether one is needed at all. RF TX always needs TXPhrase, whatever level
// the caller passes; a level that is not valid is treated as RED so that a
// bug upstream demands more, never less.
func RequiredPhrase(level Level, rfTX bool, taskID string) (phrase string, needed bool) {
	switch {
	case rfTX:
		return TXPhrase, true
	case level == Green || level == Yellow:
		return "", false
	default:
		return taskPhrase(taskID), true
	}
}

// DescribeApproval says in one line what approves a task, for prompts and
// the prepared outbox files.
func DescribeApproval(level Level, rfTX bool, taskID string) string {
	phrase, needed := RequiredPhrase(level, rfTX, taskID)
	if !needed {
		return ApproveAnswer
	}
	return fmt.Sprintf("%s, then exactly %q", ApproveAnswer, phrase)
}

// CheckRequiresApproval applies REQUIRES_APPROVAL: NO is allowed only when
// the effective level is GREEN. (Even then the operator still answers the
// prompt; NO only marks the task as needing no extra sign-off.)
func CheckRequiresApproval(requires bool, effective Level) error {
	if requires || effective == Green {
		return nil
	}
	return &approvalRequiredError{Level: effective}
}

// approvalRequiredError is REQUIRES_APPROVAL = NO above GREEN.
type approvalRequiredError struct{ Level Level }

func (e *approvalRequiredError) Error() string {
	return fmt.Sprintf("NO is allowed only at GREEN; the effective level is %s", e.Level)
}
