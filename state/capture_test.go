package state

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func sampleCapture() *CaptureInProgress {
	return &CaptureInProgress{
		TaskID: "RF001A_OTA_CAPTURE_002", DataPath: abs("/srv/rx/.local/captures/RF001A_OTA_CAPTURE_002/RF001A_OTA_CAPTURE_002.sigmf-data"),
		CapturePID: 4343, CaptureStart: 133_912_345_678_901_234, RfhandoffPID: 4242, Serial: "a06063c8234e925f",
		StartedAt:  time.Date(2026, 8, 1, 12, 1, 0, 0, time.UTC),
		SourceHead: commitA, PlannedDurationS: 120, FrequencyHz: 433920000, SampleRateHz: 2000000,
		ReadyPublished: true, ReadyCommit: commitA,
		CompleteSHA256: digestB, CompleteNotes: []string{"Capture ended normally."},
	}
}

// The record round-trips with every key written, none omitted.
func TestCaptureInProgressSaveLoad(t *testing.T) {
	dir := t.TempDir()
	in := sampleRX()
	in.CaptureInProgress = sampleCapture()
	if err := SaveRX(dir, in); err != nil {
		t.Fatal(err)
	}
	out, err := LoadRX(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n%+v\n%+v", in.CaptureInProgress, out.CaptureInProgress)
	}
	raw, err := os.ReadFile(filepath.Join(dir, RXStateFile))
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Rec map[string]json.RawMessage `json:"capture_in_progress"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	rec := top.Rec
	var keys []string
	for k := range rec {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"capture", "capture_pid", "capture_start", "complete_error", "complete_notes", "complete_refused", "complete_sha256", "data_path", "frequency_hz",
		"planned_duration_s", "ready_commit", "ready_published", "rfhandoff_pid", "sample_rate_hz",
		"serial", "source_head", "started_at", "task_id"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("capture_in_progress keys = %q, want %q", keys, want)
	}

	// No notes yet are written as [], and the caller's record is left as it was.
	in.CaptureInProgress.CompleteSHA256, in.CaptureInProgress.CompleteNotes = "", nil
	if err := SaveRX(dir, in); err != nil {
		t.Fatal(err)
	}
	if in.CaptureInProgress.CompleteNotes != nil {
		t.Error("SaveRX changed the caller's record")
	}
	raw, _ = os.ReadFile(filepath.Join(dir, RXStateFile))
	if !strings.Contains(string(raw), `"complete_notes": []`) {
		t.Errorf("no notes not written as []:\n%s", raw)
	}
}

// A state file written before capture_in_progress existed still loads,
// with no capture in progress; a null record loads the same way.
func TestCaptureInProgressMissingKeyLoads(t *testing.T) {
	for name, body := range map[string]string{
		"old file": `{"last_seen_task_id": "T_001", "running": false, "watcher_pid": 0, "approval": null,
			"completed_task_ids": [], "seen_task_digests": {}}`,
		"null": `{"capture_in_progress": null}`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, RXStateFile), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := LoadRX(dir)
		if err != nil || s.CaptureInProgress != nil {
			t.Errorf("%s: LoadRX = %+v, %v; want no capture in progress", name, s.CaptureInProgress, err)
		}
	}
}

// Every bad value of the record is named, all at once, and a file holding
// one is corrupt.
func TestCaptureInProgressInvalid(t *testing.T) {
	c := sampleCapture()
	c.TaskID, c.DataPath, c.CapturePID, c.RfhandoffPID = "lower", "relative/x.sigmf-data", 0, -1
	c.CaptureStart = -5
	c.Serial, c.StartedAt, c.SourceHead, c.PlannedDurationS = "A0", time.Time{}, "HEAD", 0
	c.FrequencyHz, c.SampleRateHz, c.ReadyCommit, c.CompleteSHA256 = -1, 0, "abc", "zz"
	s := sampleRX()
	s.CaptureInProgress = c
	err := s.validate()
	if err == nil {
		t.Fatal("invalid record accepted")
	}
	for _, key := range []string{"task_id", "data_path", "capture_pid", "capture_start", "rfhandoff_pid", "serial", "started_at",
		"source_head", "planned_duration_s", "frequency_hz", "sample_rate_hz", "ready_commit", "complete_sha256"} {
		if !strings.Contains(err.Error(), "capture_in_progress."+key) {
			t.Errorf("Validate does not name capture_in_progress.%s:\n%v", key, err)
		}
	}
	for name, mut := range map[string]func(*CaptureInProgress){
		"commit before publish":  func(c *CaptureInProgress) { c.ReadyPublished = false },
		"notes without COMPLETE": func(c *CaptureInProgress) { c.CompleteSHA256 = "" },
		"unclean path":           func(c *CaptureInProgress) { c.DataPath = abs("/srv/rx/") + "../x.sigmf-data" },
	} {
		s := sampleRX()
		s.CaptureInProgress = sampleCapture()
		mut(s.CaptureInProgress)
		if s.validate() == nil {
			t.Errorf("%s: accepted", name)
		}
		dir := t.TempDir()
		if err := WriteJSON(filepath.Join(dir, RXStateFile), s); err != nil {
			t.Fatal(err)
		}
		var ce *CorruptError
		if _, err := LoadRX(dir); !errors.As(err, &ce) {
			t.Errorf("%s: LoadRX = %v, want *CorruptError", name, err)
		}
	}
}

func TestCaptureInProgressCloneAndSame(t *testing.T) {
	a := sampleCapture()
	b := a.Clone()
	b.CompleteNotes[0] = "changed"
	b.ReadyPublished = false
	if a.CompleteNotes[0] == "changed" || !a.ReadyPublished {
		t.Error("Clone shares state with the original")
	}
	if !a.Same(b) {
		t.Error("the same capture with other publication progress is not Same")
	}
	c := a.Clone()
	c.CaptureStart++
	b.CapturePID++
	if a.Same(b) || a.Same(c) || a.Same(nil) || (*CaptureInProgress)(nil).Clone() != nil {
		t.Error("Same/Clone wrong for another capture or nil")
	}
}

// A record written before capture_start existed loads with 0: its pid is
// then checked without a start, as before.
func TestCaptureInProgressWithoutStartLoads(t *testing.T) {
	dir := t.TempDir()
	s := sampleRX()
	s.CaptureInProgress = sampleCapture()
	if err := SaveRX(dir, s); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, RXStateFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(raw), `"capture_start": 133912345678901234,`, "", 1)
	if old == string(raw) {
		t.Fatalf("capture_start not found in\n%s", raw)
	}
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRX(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.CaptureInProgress == nil || got.CaptureInProgress.CaptureStart != 0 || got.CaptureInProgress.CapturePID != 4343 {
		t.Errorf("old record loaded as %+v", got.CaptureInProgress)
	}
}
