package captureplan

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func testPlan() Plan {
	return Plan{FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, LNAGainDB: 16, VGAGainDB: 20,
		PlannedDurationS: 120, Dir: filepath.FromSlash("/srv/rx/captures"), FreeMarginBytes: 1 << 30}
}

func TestCapturePlanChangesNameTheKey(t *testing.T) {
	a := testPlan()
	if c := a.Changes(a); len(c) != 0 {
		t.Fatalf("same plan: %q", c)
	}
	b := a
	b.LNAGainDB, b.PlannedDurationS, b.Amp = 24, 3600, true
	got := strings.Join(a.Changes(b), "\n")
	for _, want := range []string{"capture.lna_gain_db: approved 16, now 24", "limits.planned_duration_s: approved 120, now 3600", "capture.amp: approved false, now true"} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "frequency") {
		t.Errorf("an unchanged key is named:\n%s", got)
	}
}

func TestCapturePlanSpace(t *testing.T) {
	p := testPlan() // 480 MB + 1 GiB
	if err := p.CheckSpace(p.Bytes() + p.FreeMarginBytes); err != nil {
		t.Fatalf("exactly enough: %v", err)
	}
	err := p.CheckSpace(p.Bytes() + p.FreeMarginBytes - 1)
	var se *spaceError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "capture.free_margin_mb") || !strings.Contains(err.Error(), p.Dir) {
		t.Fatalf("one byte short: %v", err)
	}
	lines := strings.Join(p.Describe(100e6, nil), "\n")
	for _, want := range []string{"433.92 MHz", "2 MHz", "16 dB / 20 dB", "RF amp:        off", "Antenna power: off", "120 s", "480 MB (480000000 bytes", "NOT ENOUGH"} {
		if !strings.Contains(lines, want) {
			t.Errorf("Describe lacks %q:\n%s", want, lines)
		}
	}
}
