package publish

import (
	"fmt"

	"rfhandoff/gitcli"
)

// The seven checks of PROTOCOL#publishing, in order. Step numbers are 1-based.
const (
	StepTaskID       = 1
	StepAllowPush    = 2
	StepRFTX         = 3
	StepApproved     = 4
	StepSourceHead   = 5
	StepResultBranch = 6
	StepSchema       = 7
)

var stepNames = [...]string{
	StepTaskID:       "task ID",
	StepAllowPush:    "ALLOW_PUSH",
	StepRFTX:         "RF_TX",
	StepApproved:     "approved task",
	StepSourceHead:   "source head",
	StepResultBranch: "result branch",
	StepSchema:       "schema",
}

// CheckError is a publish refused by one of the seven checks before anything was committed
// or pushed. Err may wrap the underlying error (a fetch failure, an invalid result, ...).
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
	return refuseErr(step, fmt.Errorf(format, a...))
}

func refuseErr(step int, err error) *CheckError {
	return &CheckError{Step: step, Name: stepNames[step], Err: err}
}

// unsafePath is a result path that publish will not write through: a symlink, a directory
// component that is not a plain directory, or a target that is not a regular file.
func unsafePath(path, reason string) error {
	return fmt.Errorf("refusing to write the result: %s %s on the result branch", path, reason)
}

// stagedSet is a staged change other than the two result files as regular (100644) files.
func stagedSet(ch gitcli.StagedChange, reason string) error {
	return fmt.Errorf("refusing to commit: staged %s (%c, mode %s): %s", ch.Path, ch.Status, ch.NewMode, reason)
}
