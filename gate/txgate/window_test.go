package txgate

import (
	"os"
	"testing"
	"time"

	"rfhandoff/config"
	"rfhandoff/result"
)

// readyLag is how long after hackrf_transfer starts its READY is on the
// result branch: the file's first bytes, a clone, a commit and a push
// (about a second on a lab's LAN; three allowed).
const readyLag = 3 * time.Second

// window is the MAIN operator's time, from the policy's own numbers: from
// the moment tx watch can first see the READY (published readyLag after the
// capture started, seen a whole poll.tx_interval later at worst) to the
// last moment tx execute accepts the record — its expires_at, where its
// re-check with tx.duration_s must still pass. It fails the test when the
// re-check and the record's expiry disagree about that moment.
func window(t *testing.T, pol config.Policy) time.Duration {
	t.Helper()
	start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	r := &result.Result{
		SchemaVersion: 1, TaskID: "RX_OTA_0001", State: result.StateReady,
		PublishedAt: start.Add(readyLag), CaptureStartedAt: start,
		PlannedDurationS: int64(pol.Limits.PlannedDurationS), FrequencyHz: pol.TX.FrequencyHz, SampleRateHz: pol.TX.SampleRateHz,
		RXReadyForTX: true, ProcessAlive: true, FileGrowing: true, CommonClockVerified: true, CapturePID: 4242,
	}
	seen := r.PublishedAt.Add(pol.Poll.TXInterval.Duration)
	tx := time.Duration(pol.TX.DurationS) * time.Second
	last := ReadyUntil(r, pol, tx) // the record's expires_at
	if err := CheckReadyFor(r, last, r.TaskID, pol, tx); err != nil {
		t.Fatalf("tx execute's re-check at the record's expiry %s: %v", last, err)
	}
	if err := CheckReadyFor(r, last.Add(time.Millisecond), r.TaskID, pol, tx); err == nil {
		t.Fatalf("tx execute's re-check passes after the record's expiry %s", last)
	}
	if prompt := ReadyUntil(r, pol, 0); prompt.Before(last) {
		t.Fatalf("tx watch's prompt expires at %s, before the record could be used", prompt)
	}
	return last.Sub(seen)
}

// The promise: with config.toml.example as copied (planned 120 s,
// the example's [tx]) a person has at least 90 s from READY appearing at
// tx watch to the last moment tx execute accepts the record — every PROTOCOL#main-pc
// check still made — and a policy can still tighten it.
func TestDefaultWindowIsAPersons(t *testing.T) {
	data, err := os.ReadFile("../../config.toml.example")
	if err != nil {
		t.Fatal(err)
	}
	pol, err := config.Parse(data, "config.toml.example")
	if err != nil {
		t.Fatal(err)
	}
	if pol.Limits.PlannedDurationS != 120 {
		t.Fatalf("the example plans %d s; the README's first run is 120 s", pol.Limits.PlannedDurationS)
	}
	w := window(t, pol)
	t.Logf("the example's window: %s from READY at tx watch to the last tx execute", w)
	if w < 90*time.Second {
		t.Errorf("the example's window is %s, under 90 s", w)
	}

	tight := pol
	tight.Limits.MaxPublicationAgeS = 30
	if tw := window(t, tight); tw >= w || tw > 30*time.Second {
		t.Errorf("max_publication_age_s = 30 leaves a window of %s (the default's: %s): the policy cannot tighten it", tw, w)
	}
}
