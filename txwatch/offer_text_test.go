package txwatch

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/gitcli"
	"rfhandoff/internal/gittest"
	"rfhandoff/result"
	"rfhandoff/task"
)

// A signer's principal comes from the operator's allowed-signers file: the
// offer shows it as written, never as part of a format ("%d" stays "%d").
func TestOfferShowsFileTextVerbatim(t *testing.T) {
	var out gittest.SyncBuffer
	w := &Watcher{Now: time.Now}
	w.rep = newReporter(&out, "tx watch: ")
	now := time.Now()
	first := &nodeView{
		commit: strings.Repeat("c", 40),
		r:      &result.Result{CaptureStartedAt: now, PlannedDurationS: 600, FrequencyHz: 433920000, SampleRateHz: 2000000},
		signer: &gitcli.Signature{Status: 'G', Principal: "rx%d%s@lab", Fingerprint: "SHA256:abc"},
	}
	w.showOffer(&task.Task{ID: "RX_OTA_0001"}, []*nodeView{first}, first, nil, now.Add(time.Minute), TXParams{})
	got := out.String()
	if !strings.Contains(got, "signed by rx%d%s@lab SHA256:abc (good signature") || strings.Contains(got, "%!") {
		t.Errorf("offer garbles the principal:\n%s", got)
	}
	if !strings.Contains(got, "433920000 Hz at 2000000 samples/s") {
		t.Errorf("offer's later values shifted:\n%s", got)
	}
}
