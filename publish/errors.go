package publish

import (
	"fmt"

	"rfhandoff/gitcli"
)

// The seven checks of SPEC §6, in order. Step numbers are 1-based.
const (
	StepTaskID       = 1
	StepAllowPush    = 2
	StepRFTX         = 3
	StepApproved     = 4
	StepSourceHead   = 5
	StepResultBranch = 6
	StepSchema       = 7
)

// stepNames names each check in messages ("check 4 (approved task): ...").
var stepNames = [...]string{
	StepTaskID:       "task ID",
	StepAllowPush:    "ALLOW_PUSH",
	StepRFTX:         "RF_TX",
	StepApproved:     "approved task",
	StepSourceHead:   "source head",
	StepResultBranch: "result branch",
	StepSchema:       "schema",
}

// CheckError is a publish refused by one of the seven checks before any
// clone was made. Err says why; it may wrap the underlying error (a fetch
// failure, a *result.InvalidError, a *state.CorruptError, ...).
type CheckError struct {
	Step int
	Name string
	Err  error
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("check %d (%s): %v", e.Step, e.Name, e.Err)
}

func (e *CheckError) Unwrap() error { return e.Err }

func refuse(step int, format string, a ...any) *CheckError {
	return &CheckError{Step: step, Name: stepNames[step], Err: fmt.Errorf(format, a...)}
}

func refuseErr(step int, err error) *CheckError {
	return &CheckError{Step: step, Name: stepNames[step], Err: err}
}

// UnsafePathError is a result path in the clone that publish will not
// write through: a symlink, or something that is not a plain directory
// (for a directory component) or not a regular file (for a target).
type UnsafePathError struct {
	Path   string // repository-relative, e.g. docs/handoff/results
	Reason string
}

func (e *UnsafePathError) Error() string {
	return fmt.Sprintf("refusing to write the result: %s %s on the result branch", e.Path, e.Reason)
}

// StagedSetError is a staged change other than the two result files as
// regular (100644) files. Nothing was committed.
type StagedSetError struct {
	Change gitcli.StagedChange
	Reason string
}

func (e *StagedSetError) Error() string {
	return fmt.Sprintf("refusing to commit: staged %s (%c, mode %s): %s",
		e.Change.Path, e.Change.Status, e.Change.NewMode, e.Reason)
}

// ExhaustedError is a publish whose every attempt found the result branch
// moved under it (another push landed between clone and push).
type ExhaustedError struct {
	Attempts int
	Err      error // the last *gitcli.PushRejectedError
}

func (e *ExhaustedError) Error() string {
	return fmt.Sprintf("gave up after %d attempts: the result branch kept moving: %v", e.Attempts, e.Err)
}

func (e *ExhaustedError) Unwrap() error { return e.Err }
