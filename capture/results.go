package capture

import (
	"time"

	"rfhandoff/result"
)

// liveFacts are what READY and COMPLETE share.
type liveFacts struct {
	taskID     string
	sourceHead string
	startedAt  time.Time
	plannedS   int64
	freqHz     int64
	rateHz     int64
	pid        int
	simulated  bool
	align      *result.Alignment // schema_version 3; nil for a task without START_AT
}

// ready is RX_READY_FOR_TX: every final field null.
func ready(f liveFacts, now time.Time) *result.Result {
	return &result.Result{
		SchemaVersion: result.SchemaVersion, TaskID: f.taskID, State: result.StateReady,
		SourceHead: f.sourceHead, PublishedAt: now, CaptureStartedAt: f.startedAt,
		PlannedDurationS: f.plannedS, FrequencyHz: f.freqHz, SampleRateHz: f.rateHz,
		RXReadyForTX: true, ProcessAlive: true, FileGrowing: true, CommonClockVerified: true,
		CapturePID: int64(f.pid), Simulated: f.simulated, Alignment: f.align,
	}
}

type ending struct {
	endedAt       time.Time
	exitCode      int
	sizeBytes     int64
	sha256        string
	overruns      *int64
	droppedFrames *int64
	clkinAfter    result.Clkin
	observed      result.RFTXObserved
}

// complete is CAPTURE_COMPLETE: common_clock_verified holds only if CLKIN
// was still detected after the capture.
func complete(f liveFacts, e ending, now time.Time) *result.Result {
	r := ready(f, now)
	r.State = result.StateComplete
	r.RXReadyForTX, r.ProcessAlive, r.FileGrowing = false, false, false
	r.CommonClockVerified = e.clkinAfter == result.ClkinDetected
	r.CaptureEndedAt = new(e.endedAt)
	r.CaptureExitCode = new(int64(e.exitCode))
	r.CaptureSizeBytes = new(e.sizeBytes)
	r.CaptureDurationS = new(float64(e.sizeBytes/2) / float64(f.rateHz))
	r.CaptureSHA256 = new(e.sha256)
	r.Overruns = e.overruns
	r.DroppedFrames = e.droppedFrames
	r.ClkinAfter = new(e.clkinAfter)
	r.RFTXObserved = new(e.observed)
	return r
}
