package exec

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// Decision lines are links of the same chain as the subprocesses: written
// in order, read back with their fields, and an edit of one is caught at
// that line like an edit of any other.
func TestDecisionLinesKeepTheChain(t *testing.T) {
	path, log := writeLog(t, 2)
	expires := time.Date(2026, 12, 2, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	left := 2
	for _, d := range []Decision{
		{Side: SideTX, Kind: DecisionOffer, Command: "tx watch", TaskID: "RF001A", ResultCommit: strings.Repeat("a", 40),
			ResultSHA256: strings.Repeat("b", 64), ExpiresAt: expires},
		{Side: SideTX, Kind: DecisionPhraseRefused, Command: "tx watch", TaskID: "RF001A", ResultSHA256: strings.Repeat("b", 64), TriesLeft: &left},
		{Side: SideTX, Kind: DecisionOfferEnded, Command: "tx watch", TaskID: "RF001A",
			Reason: "blocked: re-fetching https://alice:s3cret@example.org/lab.git failed"},
	} {
		if err := log.RecordDecision(d); err != nil {
			t.Fatal(err)
		}
	}
	st, err := VerifyAuditLog(path)
	if err != nil || st.Lines != 5 {
		t.Fatalf("verify: %+v %v", st, err)
	}
	es, err := ReadAuditTail(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	offer, refused, ended := es[0], es[1], es[2]
	if offer.Event != EventDecision || offer.Kind != DecisionOffer || offer.Role != string(SideTX) || offer.Command != "tx watch" ||
		offer.TaskID != "RF001A" || offer.ExpiresAt == nil || !offer.ExpiresAt.Equal(expires) || offer.Seq != 3 {
		t.Errorf("offer line %+v", offer)
	}
	if refused.TriesLeft == nil || *refused.TriesLeft != 2 {
		t.Errorf("refused phrase line %+v", refused)
	}
	if strings.Contains(ended.Reason, "s3cret") || !strings.Contains(ended.Reason, "alice:"+Redacted+"@") {
		t.Errorf("offer_ended reason %q: URL credentials must read %s", ended.Reason, Redacted)
	}

	// A hand-edited decision: another result digest on the offer line.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"result_sha256":"`+strings.Repeat("b", 64)), []byte(`"result_sha256":"`+strings.Repeat("c", 64)), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("the offer line holds no result_sha256 to edit")
	}
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = VerifyAuditLog(path)
	var ce *ChainError
	if !errors.As(err, &ce) || ce.Line != 3 {
		t.Fatalf("an edited decision line: %v, want a *ChainError at line 3", err)
	}
}

func TestRecordDecisionRefusesWithoutLogOrKind(t *testing.T) {
	var none *AuditLog
	if err := none.RecordDecision(Decision{Kind: DecisionOffer}); err == nil {
		t.Error("a nil log recorded a decision")
	}
	path, log := writeLog(t, 1)
	if err := log.RecordDecision(Decision{Side: SideRX}); err == nil {
		t.Error("a decision without a kind was recorded")
	}
	if st, err := VerifyAuditLog(path); err != nil || st.Lines != 1 {
		t.Errorf("the refused decisions wrote lines: %+v %v", st, err)
	}
}

// A simulated capture's decision line says so; a line about a HackRF has
// no simulated key at all (its bytes are what they were before the key).
func TestDecisionSimulated(t *testing.T) {
	path, log := writeLog(t, 0)
	for _, d := range []Decision{
		{Side: SideRX, Kind: DecisionCaptureSimulator, Command: "rx capture", TaskID: "RF001A", Verdict: VerdictPassed,
			Reason: "hackrf_info at /opt/sim/hackrf_info answered as rfhandoff's HackRF simulator; [tools] allow_simulator = true", Simulated: true},
		{Side: SideTX, Kind: DecisionOffer, Command: "tx watch", TaskID: "RF001A"},
	} {
		if err := log.RecordDecision(d); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"simulated":true`) || strings.Contains(lines[1], "simulated") {
		t.Fatalf("lines:\n%s", data)
	}
	es, err := ReadAuditTail(path, 2)
	if err != nil || !es[0].Simulated || es[0].Kind != DecisionCaptureSimulator || es[0].Verdict != VerdictPassed || es[1].Simulated {
		t.Fatalf("read back %+v, %v", es, err)
	}
	if _, err := VerifyAuditLog(path); err != nil {
		t.Fatal(err)
	}
}
