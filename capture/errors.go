package capture

import (
	"errors"
	"fmt"
	"strings"

	"rfhandoff/hackrfcli"
	"rfhandoff/publish"
	"rfhandoff/result"
)

// refusedError is a capture refused before any hardware was touched,
// with every problem found at once.
type refusedError struct {
	TaskID  string
	Reasons []string
}

func (e *refusedError) Error() string {
	what := "capture refused"
	if e.TaskID != "" {
		what += " for task " + e.TaskID
	}
	if len(e.Reasons) == 1 {
		return what + ": " + e.Reasons[0]
	}
	return what + ":\n  - " + strings.Join(e.Reasons, "\n  - ")
}

// refuse is a refusedError for one reason.
func refuse(id, reason string) error { return &refusedError{TaskID: id, Reasons: []string{reason}} }

// ErrRunning matches a *busyError: another rx capture holds the lock.
var ErrRunning = errors.New("another rx capture is running")

// ErrInterrupted matches a capture stopped by a signal to rfhandoff.
var ErrInterrupted = errors.New("capture interrupted")

type busyError struct {
	Path string
	PID  int // 0 when unknown
}

func (e *busyError) Error() string {
	who := "another rx capture"
	if e.PID > 0 {
		who = fmt.Sprintf("another rx capture (pid %d)", e.PID)
	}
	return fmt.Sprintf("%s is running (lock %s); only one capture at a time", who, e.Path)
}

func (e *busyError) Is(target error) bool { return target == ErrRunning }

// noDevice is no HackRF found (or not the pinned one among found); it
// wraps the tool's error when there is one.
func noDevice(serial string, found []string, err error) error {
	msg := "no HackRF found"
	switch {
	case serial != "" && len(found) > 0:
		msg = fmt.Sprintf("no HackRF found with serial %s (found: %s); check [capture] serial", serial, strings.Join(found, ", "))
	case serial != "":
		msg = fmt.Sprintf("no HackRF found (wanted serial %s)", serial)
	}
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was started or published", msg, err)
	}
	return errors.New(msg + "; nothing was started or published")
}

// ambiguousDevice is several HackRFs without a pin, or matching it.
func ambiguousDevice(pin string, serials []string) error {
	if pin != "" {
		return fmt.Errorf("serial %s matches %d HackRFs (%s); pin the full serial in [capture] serial; nothing was started or published",
			pin, len(serials), strings.Join(serials, ", "))
	}
	return fmt.Errorf("%d HackRFs found (%s); pin the one to capture with in [capture] serial; nothing was started or published",
		len(serials), strings.Join(serials, ", "))
}

// oldFirmwareMessage says the firmware cannot report CLKIN and that
// updating it is a RED task of its own: rfhandoff never flashes firmware.
func oldFirmwareMessage(firmware, api string, fe *hackrfcli.FirmwareError) string {
	have := "the HackRF's firmware"
	switch {
	case firmware != "" && api != "":
		have = fmt.Sprintf("the HackRF's firmware %s (USB API %s, as hackrf_info reports it)", firmware, api)
	case firmware != "":
		have = fmt.Sprintf("the HackRF's firmware %s (as hackrf_info reports it)", firmware)
	}
	need := "newer firmware"
	if fe.NeedRelease != "" {
		need = fmt.Sprintf("firmware %s or later (USB API %s)", fe.NeedRelease, fe.NeedAPI)
	}
	return fmt.Sprintf("cannot verify the common clock: %s is too old to report CLKIN — hackrf_clock -i needs %s and answered %q. "+
		"Updating the HackRF firmware (hackrf_spiflash) is a RED task: hand it to a person as its own task with RISK_LEVEL = RED; "+
		"rfhandoff never flashes firmware. Nothing was started or published",
		have, need, fe.Call.Call+"() failed: "+fe.Call.Text+fmt.Sprintf(" (%d)", fe.Call.Code))
}

// refusedAsIs reports a publish refused for what the result or the task
// is (checks 1 to 5 and 7), so the same bytes would be refused again. A
// missing result branch (check 6) may come back; other failures are worth a retry.
func refusedAsIs(err error) bool {
	ce, ok := errors.AsType[*publish.CheckError](err)
	return ok && ce.Step != publish.StepResultBranch
}

// lastLines joins the last n non-blank lines of s, trimmed, with " | ".
func lastLines(s string, n int) string {
	var keep []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, " | ")
}

// causedError is a message of its own over the error that caused it.
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }

// clockRefusal is CLKIN not detected (err nil) or hackrf_clock failing:
// common_clock_verified cannot be claimed, so nothing starts.
func clockRefusal(err error, firmware, api string) error {
	if fe, ok := errors.AsType[*hackrfcli.FirmwareError](err); ok {
		return &causedError{oldFirmwareMessage(firmware, api, fe), err}
	}
	if err != nil {
		return fmt.Errorf("cannot verify the common clock: hackrf_clock -i failed: %w; nothing was started or published", err)
	}
	return errors.New("CLKIN status: no clock signal detected — connect the shared 10 MHz reference to the HackRF's CLKIN; nothing was started or published")
}

// startFailed is a capture that never became READY: the tool failed
// (exitCode when it exited; tail, its last lines), or the file did not grow.
func startFailed(reason string, exitCode *int, tail string, cause error) error {
	msg := "capture did not start: " + reason
	if exitCode != nil {
		msg += fmt.Sprintf(" (hackrf_transfer exit status %d)", *exitCode)
	}
	if t := lastLines(tail, 3); t != "" {
		msg += ": " + t
	}
	return &causedError{msg + "; nothing was published", cause}
}

// readyFailed is a READY not published; completed: an honest COMPLETE was.
func readyFailed(err error, completed bool) error {
	how := "nothing was published"
	if completed {
		how = "an honest COMPLETE published in case READY had landed"
	}
	return fmt.Errorf("publishing %s failed: %w; the capture was stopped and %s", result.StateReady, err, how)
}

// completeFailed is a COMPLETE saved (and maybe recorded) but not published.
func completeFailed(err error, saved, taskID string, recorded bool) error {
	var then string
	switch {
	case refusedAsIs(err):
		// No command that cannot work is suggested.
		then = fmt.Sprintf("the capture is finished and its COMPLETE is saved at %s, unpublished (rx status shows it and why); "+
			"the publisher refuses it as it is, so trying again will not help: look at it, tell the MAIN side what it holds, then drop the record with `rfhandoff rx mark-completed %s`",
			saved, taskID)
	case recorded:
		then = fmt.Sprintf("the result is saved at %s and recorded in the RX state: the next rx capture or rx watch publishes it, or publish it now with `rfhandoff rx publish-result %s`", saved, saved)
	default:
		then = fmt.Sprintf("the result is saved at %s — publish it with `rfhandoff rx publish-result %s`", saved, saved)
	}
	return fmt.Errorf("publishing %s failed: %w; %s", result.StateComplete, err, then)
}

// interrupted is a capture stopped by a signal (cause). published: READY
// had been, and so has COMPLETE.
func interrupted(cause error, published bool) error {
	how := " before READY; nothing was published"
	if published {
		how = "; hackrf_transfer was stopped and an honest COMPLETE published"
	}
	if cause == nil {
		return fmt.Errorf("%w%s", ErrInterrupted, how)
	}
	return fmt.Errorf("%w (%w)%s", ErrInterrupted, cause, how)
}
