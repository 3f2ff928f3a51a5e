package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"

	"rfhandoff/exec"
	"rfhandoff/state"
)

// capture_in_progress (doc.go, "A killed rx capture") is written through
// state.RXStore.Update: the state lock makes it safe beside `rx watch`.

// recordStart writes the record before READY: without it a kill could
// leave a READY standing, so a failure stops the capture.
func (s *session) recordStart() error {
	path, err := filepath.Abs(s.rep.DataPath)
	if err != nil {
		return err
	}
	f := s.facts
	// Our child, not yet waited for: its pid still names it.
	start, _ := exec.ProcessStart(f.pid)
	rec := &state.CaptureInProgress{
		TaskID: f.taskID, DataPath: path, CapturePID: f.pid, CaptureStart: start, RfhandoffPID: os.Getpid(),
		Serial: s.hc.Serial, StartedAt: f.startedAt, SourceHead: f.sourceHead,
		PlannedDurationS: f.plannedS, FrequencyHz: f.freqHz, SampleRateHz: f.rateHz,
		CompleteNotes: []string{}, Node: s.node, Capture: new(s.plan), Simulated: f.simulated,
	}
	if _, err := s.store().Update(func(st *state.RX) error {
		st.CaptureInProgress = rec
		return nil
	}); err != nil {
		return err
	}
	s.record = rec
	return nil
}

// forgetRecord clears the record: COMPLETE was published, or nothing was.
func (s *session) forgetRecord() {
	if s.record == nil {
		return
	}
	if _, err := dropRecord(s.store(), s.record.Same); err != nil {
		s.d.Logger.Warn("could not clear capture_in_progress; the next rx capture or rx watch will find COMPLETE already published", "err", err)
		return
	}
	s.record = nil
}

// updateRecord changes the session's record if the state still holds it.
// A failure is logged: a recovery would build COMPLETE from what it holds.
func (s *session) updateRecord(what string, change func(*state.CaptureInProgress)) {
	if s.record == nil {
		return
	}
	next := s.record.Clone()
	change(next)
	if err := replaceRecord(s.store(), next, errors.New("capture_in_progress no longer records this capture")); err != nil {
		s.d.Logger.Warn("could not record "+what+" in capture_in_progress", "err", err)
		return
	}
	s.record = next
}

func (s *session) store() *state.RXStore { return &state.RXStore{Dir: s.stateDir} }

// replaceRecord writes next over the record it was cloned from; when the
// state no longer holds that one it returns changed (nil: no error).
func replaceRecord(store *state.RXStore, next *state.CaptureInProgress, changed error) error {
	_, err := store.Update(func(st *state.RX) error {
		if !next.Same(st.CaptureInProgress) {
			return changed
		}
		st.CaptureInProgress = next
		return nil
	})
	return err
}

// dropRecord clears capture_in_progress if match, returning it or nil.
func dropRecord(store *state.RXStore, match func(*state.CaptureInProgress) bool) (*state.CaptureInProgress, error) {
	var dropped *state.CaptureInProgress
	_, err := store.Update(func(st *state.RX) error {
		if r := st.CaptureInProgress; r != nil && match(r) {
			dropped, st.CaptureInProgress = r, nil
		}
		return nil
	})
	return dropped, err
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
