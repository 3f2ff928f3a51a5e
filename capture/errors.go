package capture

import (
	"errors"
	"fmt"
	"strings"

	"rfhandoff/hackrfcli"
	"rfhandoff/publish"
)

// refusedError is a capture refused before any hardware was touched: the
// task, its approval, the state or the checkout is not what a capture
// needs. Reasons lists every problem found at once.
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

// ErrRunning matches (errors.Is) a capture refused because another
// `rx capture` holds the capture lock.
var ErrRunning = errors.New("another rx capture is running")

// ErrInterrupted matches (errors.Is) a capture stopped by a signal to
// rfhandoff.
var ErrInterrupted = errors.New("capture interrupted")

// busyError is another `rx capture` holding the capture lock; it matches
// ErrRunning.
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

// noDevice is no HackRF found (or not the pinned one, with the serials
// found). Nothing was started or published. It wraps the tool's error
// (errors.Is hackrfcli.ErrNoDevice) when the tool said so.
func noDevice(serial string, found []string, err error) error {
	var msg string
	switch {
	case serial != "" && len(found) > 0:
		msg = fmt.Sprintf("no HackRF found with serial %s (found: %s); check [capture] serial", serial, strings.Join(found, ", "))
	case serial != "":
		msg = fmt.Sprintf("no HackRF found (wanted serial %s)", serial)
	default:
		msg = "no HackRF found"
	}
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was started or published", msg, err)
	}
	return errors.New(msg + "; nothing was started or published")
}

// ambiguousDevice is several HackRFs (serials) without a pinned serial, or
// a pin that matched several.
func ambiguousDevice(pin string, serials []string) error {
	if pin != "" {
		return fmt.Errorf("serial %s matches %d HackRFs (%s); pin the full serial in [capture] serial; nothing was started or published",
			pin, len(serials), strings.Join(serials, ", "))
	}
	return fmt.Errorf("%d HackRFs found (%s); pin the one to capture with in [capture] serial; nothing was started or published",
		len(serials), strings.Join(serials, ", "))
}

// clockError is CLKIN not detected (or hackrf_clock failing) before the
// capture: common_clock_verified cannot be claimed, so nothing starts.
type clockError struct {
	Err error // the tool's failure, nil when it answered "no clock signal detected"
	// Firmware and API are the board's firmware version and USB API as
	// hackrf_info read them, set when Err is a *hackrfcli.FirmwareError.
	Firmware, API string
}

func (e *clockError) Error() string {
	var fe *hackrfcli.FirmwareError
	if errors.As(e.Err, &fe) {
		return oldFirmwareMessage(e.Firmware, e.API, fe)
	}
	if e.Err != nil {
		return fmt.Sprintf("cannot verify the common clock: hackrf_clock -i failed: %v; nothing was started or published", e.Err)
	}
	return "CLKIN status: no clock signal detected — connect the shared 10 MHz reference to the HackRF's CLKIN; nothing was started or published"
}

func (e *clockError) Unwrap() error { return e.Err }

// oldFirmwareMessage says the board's firmware cannot report CLKIN and
// that updating it is a separate, RED task: flashing firmware is never part
// of a capture, and rfhandoff runs no flashing tool.
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

// startError is a capture that never became READY: the tool failed, or the
// file did not grow. Nothing was published and the void data file was
// removed.
type startError struct {
	Reason     string
	ExitCode   *int   // the tool's exit status, when it exited
	StderrTail string // the tool's last lines
	Err        error
}

func (e *startError) Error() string {
	msg := "capture did not start: " + e.Reason
	if e.ExitCode != nil {
		msg += fmt.Sprintf(" (hackrf_transfer exit status %d)", *e.ExitCode)
	}
	if t := lastLines(e.StderrTail, 3); t != "" {
		msg += ": " + t
	}
	return msg + "; nothing was published"
}

func (e *startError) Unwrap() error { return e.Err }

// publishError is a READY or COMPLETE that could not be published.
type publishError struct {
	State string // RX_READY_FOR_TX or CAPTURE_COMPLETE
	// Saved is where the result JSON was written locally, for a later
	// `rx publish-result`; "" when it was not.
	Saved string
	// Recorded is a COMPLETE also recorded in capture_in_progress: the next
	// rx capture or rx watch publishes it by itself.
	Recorded bool
	// CompletePublished is set for a failed READY whose capture then got
	// an honest COMPLETE published to supersede a READY that may have landed.
	CompletePublished bool
	TaskID            string // the capture's task
	Err               error
}

func (e *publishError) Error() string {
	msg := fmt.Sprintf("publishing %s failed: %v", e.State, e.Err)
	refused := refusedAsIs(e.Err)
	switch {
	case e.State == "CAPTURE_COMPLETE" && e.Saved != "" && refused:
		// Publishing the same bytes again is refused the same way: no
		// command that cannot work is suggested.
		msg += fmt.Sprintf("; the capture is finished and its COMPLETE is saved at %s, unpublished (rx status shows it and why); "+
			"the publisher refuses it as it is, so trying again will not help: look at it, tell the MAIN side what it holds, then drop the record with `rfhandoff rx mark-completed %s`",
			e.Saved, e.TaskID)
	case e.State == "CAPTURE_COMPLETE" && e.Saved != "" && e.Recorded:
		msg += fmt.Sprintf("; the result is saved at %s and recorded in the RX state: the next rx capture or rx watch publishes it, or publish it now with `rfhandoff rx publish-result %s`", e.Saved, e.Saved)
	case e.State == "CAPTURE_COMPLETE" && e.Saved != "":
		msg += fmt.Sprintf("; the result is saved at %s — publish it with `rfhandoff rx publish-result %s`", e.Saved, e.Saved)
	case e.State == "RX_READY_FOR_TX" && e.CompletePublished:
		msg += "; the capture was stopped and an honest COMPLETE published in case READY had landed"
	case e.State == "RX_READY_FOR_TX":
		msg += "; the capture was stopped and nothing was published"
	}
	return msg
}

func (e *publishError) Unwrap() error { return e.Err }

// refusedAsIs reports a publish the checks refused for what the result or
// the task is (checks 1 to 5 and 7): the same bytes are refused the same
// way again. A missing result branch (check 6) may come back, and any
// other failure (the clone, the push) is worth another try.
func refusedAsIs(err error) bool {
	var ce *publish.CheckError
	return errors.As(err, &ce) && ce.Step != publish.StepResultBranch
}

// failedError is a capture that ended abnormally after READY: it died,
// stalled or came up short. COMPLETE says so (when Published).
type failedError struct {
	Kind      string // "stall", "exit", "short"
	Reason    string
	Published bool // COMPLETE was published
}

func (e *failedError) Error() string {
	msg := strings.TrimSuffix(e.Reason, ".")
	if e.Published {
		return msg + "; an honest COMPLETE was published"
	}
	return msg
}

// interruptedError is a capture stopped by a signal to rfhandoff; it
// matches ErrInterrupted and unwraps to the cause.
type interruptedError struct {
	Cause     error
	Published bool // COMPLETE was published (READY had been)
}

func (e *interruptedError) Error() string {
	msg := "capture interrupted"
	if e.Cause != nil {
		msg += " (" + e.Cause.Error() + ")"
	}
	if e.Published {
		return msg + "; hackrf_transfer was stopped and an honest COMPLETE published"
	}
	return msg + " before READY; nothing was published"
}

func (e *interruptedError) Unwrap() error        { return e.Cause }
func (e *interruptedError) Is(target error) bool { return target == ErrInterrupted }

func lastLines(s string, n int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	var keep []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, " | ")
}
