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

const (
	commitA = "0123456789abcdef0123456789abcdef01234567"
	digestA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	digestB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func sampleRX() RX {
	return RX{
		LastSeenTaskID: "RF001A_OTA_CAPTURE_002", LastSeenTaskCommit: commitA,
		LastCompletedTaskID: "RF001A_OTA_CAPTURE_001", LastApprovedTaskID: "RF001A_OTA_CAPTURE_002",
		DeferredTaskID: "", Running: true, WatcherPID: 4242,
		Approval: &Approval{TaskID: "RF001A_OTA_CAPTURE_002", TaskSHA256: digestA, Commit: commitA,
			ApprovedAt: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)},
		CompletedTaskIDs: []string{"RF001A_OTA_CAPTURE_001"},
		SeenTaskDigests:  map[string]string{"RF001A_OTA_CAPTURE_002": digestA},
		AcceptedTask:     &AcceptedTask{Commit: commitA, TaskSHA256: digestA},
		ReplacedTaskIDs:  []string{"RF001A_OTA_CAPTURE_000"},
	}
}

func TestRXFreshWhenMissing(t *testing.T) {
	s, err := LoadRX(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if s.Running || s.Approval != nil || s.CompletedTaskIDs == nil || s.SeenTaskDigests == nil || len(s.CompletedTaskIDs) != 0 {
		t.Errorf("fresh state = %+v", s)
	}
}

func TestRXSaveLoadAndKeys(t *testing.T) {
	dir := t.TempDir()
	in := sampleRX()
	if err := SaveRX(dir, in); err != nil {
		t.Fatal(err)
	}
	out, err := LoadRX(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip:\n%+v\n%+v", in, out)
	}

	// The file carries exactly the PROTOCOL#rx-state keys and ours, nothing else.
	raw, err := os.ReadFile(filepath.Join(dir, RXStateFile))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"accepted_task", "approval", "capture_in_progress", "completed_task_ids", "deferred_task_id", "last_approved_task_id",
		"last_completed_task_id", "last_seen_task_commit", "last_seen_task_id", "notified_task_sha256", "replaced_task_ids", "running",
		"seen_task_digests", "watcher_pid"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
	var ap map[string]json.RawMessage
	if err := json.Unmarshal(m["approval"], &ap); err != nil || len(ap) != 5 ||
		ap["capture"] == nil || ap["task_id"] == nil || ap["task_sha256"] == nil || ap["commit"] == nil || ap["approved_at"] == nil {
		t.Errorf("approval object = %s", m["approval"])
	}

	// Empty collections are written as [] and {}, no approval as null.
	if err := SaveRX(dir, RX{}); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(filepath.Join(dir, RXStateFile))
	for _, want := range []string{`"completed_task_ids": []`, `"seen_task_digests": {}`, `"approval": null`, `"capture_in_progress": null`,
		`"accepted_task": null`, `"replaced_task_ids": []`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("fresh file lacks %s:\n%s", want, raw)
		}
	}
}

func TestRXInvalidValues(t *testing.T) {
	bad := []func(*RX){
		func(s *RX) { s.LastSeenTaskID = "lower_case" },
		func(s *RX) { s.DeferredTaskID = "-x" },
		func(s *RX) { s.LastSeenTaskCommit = "HEAD" },
		func(s *RX) { s.WatcherPID = -1 },
		func(s *RX) { s.Approval.TaskSHA256 = "abc" },
		func(s *RX) { s.Approval.Commit = strings.ToUpper(commitA) },
		func(s *RX) { s.Approval.ApprovedAt = time.Time{} },
		func(s *RX) { s.Approval.TaskID = "" },
		func(s *RX) { s.CompletedTaskIDs = append(s.CompletedTaskIDs, s.CompletedTaskIDs[0]) },
		func(s *RX) { s.SeenTaskDigests["bad id"] = digestA },
		func(s *RX) { s.SeenTaskDigests["RF001A_OTA_CAPTURE_002"] = "zz" },
		func(s *RX) { s.AcceptedTask.Commit = "" },
		func(s *RX) { s.AcceptedTask.TaskSHA256 = "abc" },
		func(s *RX) { s.ReplacedTaskIDs = append(s.ReplacedTaskIDs, "no good") },
		func(s *RX) { s.ReplacedTaskIDs = append(s.ReplacedTaskIDs, s.ReplacedTaskIDs[0]) },
	}
	for i, mut := range bad {
		s := sampleRX()
		mut(&s)
		if s.validate() == nil {
			t.Errorf("case %d: invalid state accepted: %+v", i, s)
			continue
		}
		dir := t.TempDir()
		if err := SaveRX(dir, s); err == nil {
			t.Errorf("case %d: SaveRX wrote an invalid state", i)
		}
		if _, err := os.Stat(filepath.Join(dir, RXStateFile)); !os.IsNotExist(err) {
			t.Errorf("case %d: refused save left a file: %v", i, err)
		}
		// The same values written by someone else: LoadRX calls it corrupt.
		if err := WriteJSON(filepath.Join(dir, RXStateFile), s); err != nil {
			t.Fatal(err)
		}
		_, err := LoadRX(dir)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.Path != filepath.Join(dir, RXStateFile) {
			t.Errorf("case %d: LoadRX = %v, want *CorruptError naming the file", i, err)
		}
	}

	// Every problem at once.
	s := sampleRX()
	s.LastSeenTaskID, s.WatcherPID = "x", -3
	err := s.validate()
	if err == nil || !strings.Contains(err.Error(), "last_seen_task_id") || !strings.Contains(err.Error(), "watcher_pid") {
		t.Errorf("Validate = %v, want both problems", err)
	}
}

func TestRXCorruptFileNamedAndUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, RXStateFile)
	body := []byte(`{"running": true, "watcher_pid": 12, "Running": false}`)
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadRX(dir)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Path != path {
		t.Fatalf("LoadRX = %v, want *CorruptError for %s", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != string(body) {
		t.Errorf("corrupt state changed to %q", got)
	}
}

func TestRXCompletedAndDigests(t *testing.T) {
	var s RX
	if s.Completed("T_001") {
		t.Error("fresh state says T_001 completed")
	}
	s.DeferredTaskID = "T_001"
	s.MarkCompleted("T_001")
	s.MarkCompleted("T_001")
	if !s.Completed("T_001") || s.LastCompletedTaskID != "T_001" || len(s.CompletedTaskIDs) != 1 || s.DeferredTaskID != "" {
		t.Errorf("after MarkCompleted: %+v", s)
	}
	s.MarkCompleted("T_002")
	if !s.Completed("T_001") || !s.Completed("T_002") {
		t.Error("an earlier completion was forgotten")
	}

	if first, changed := s.SeeDigest("T_003", digestA); changed || first != digestA {
		t.Errorf("first sight = %s, %v", first, changed)
	}
	if first, changed := s.SeeDigest("T_003", digestA); changed || first != digestA {
		t.Errorf("same content = %s, %v", first, changed)
	}
	if first, changed := s.SeeDigest("T_003", digestB); !changed || first != digestA {
		t.Errorf("changed content = %s, %v; want changed against the first digest", first, changed)
	}
	if s.SeenTaskDigests["T_003"] != digestA {
		t.Error("a changed digest replaced the first one")
	}

	// Seeing another TASK_ID replaces the one seen before it, once.
	s.SeeTask("T_003", commitA)
	s.SeeTask("T_003", commitA)
	if s.Replaced("T_003") || len(s.ReplacedTaskIDs) != 0 {
		t.Errorf("the same task seen again counts as replaced: %q", s.ReplacedTaskIDs)
	}
	s.SeeTask("T_004", commitA)
	s.SeeTask("T_003", commitA)
	s.SeeTask("T_004", commitA)
	if !s.Replaced("T_003") || !s.Replaced("T_004") || len(s.ReplacedTaskIDs) != 2 || s.LastSeenTaskID != "T_004" {
		t.Errorf("after T_003, T_004, T_003, T_004: replaced %q, last seen %s", s.ReplacedTaskIDs, s.LastSeenTaskID)
	}
	if err := s.validate(); err != nil {
		t.Errorf("state built by the helpers is invalid: %v", err)
	}
}
