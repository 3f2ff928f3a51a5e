package state

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzStateFile feeds arbitrary bytes to the strict reader as both state
// types. Whatever it accepts is valid JSON, passes Validate, and survives
// a write/read round trip unchanged; nothing panics.
func FuzzStateFile(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"running":true,"watcher_pid":12,"last_seen_task_id":"T_001"}`))
	f.Add([]byte(`{"running":true,"Running":false}`))
	f.Add([]byte(`{"running":true,"running":false}`))
	f.Add([]byte(`{"approval":null,"completed_task_ids":[],"seen_task_digests":{}}`))
	f.Add([]byte(`{"approval":{"task_id":"T_001","task_sha256":"` + digestA + `","commit":"` + commitA + `","approved_at":"2026-08-01T12:00:00Z"}}`))
	f.Add([]byte(`{"shown_result_digests":{"` + digestA + `":"2026-08-01T12:00:00+02:00"},"last_result_commit":"` + commitA + `"}`))
	f.Add([]byte(`{"capture_in_progress":null}`))
	f.Add([]byte(`{"capture_in_progress":{"task_id":"T_001","data_path":"/c/T_001.sigmf-data","capture_pid":7,"rfhandoff_pid":6,"serial":"","started_at":"2026-08-01T12:00:00Z","source_head":"` + commitA + `","planned_duration_s":120,"frequency_hz":433920000,"sample_rate_hz":2000000,"ready_published":true,"ready_commit":"` + commitA + `","complete_sha256":"` + digestA + `","complete_notes":["n"]}}`))
	f.Add([]byte(`{"capture_in_progress":{"task_id":"T_001","complete_notes":null}}`))
	f.Add([]byte(`{"watcher_pid":1e3}`))
	f.Add([]byte("{\"\u017funning\":true}"))
	f.Add([]byte(`{"running":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAccepted(t, data, &RX{}, func(v any) error { return v.(*RX).validate() })
		checkAccepted(t, data, &TX{}, func(v any) error { return v.(*TX).validate() })
	})
}

func checkAccepted(t *testing.T, data []byte, v any, validate func(any) error) {
	if err := decodeStrict(data, v); err != nil {
		return
	}
	if !json.Valid(data) {
		t.Fatalf("accepted invalid JSON %q", data)
	}
	if validate(v) != nil {
		return // LoadRX/LoadTX would call it corrupt
	}
	again, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	w := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	if err := decodeStrict(again, w); err != nil {
		t.Fatalf("own encoding %s rejected: %v", again, err)
	}
	if !reflect.DeepEqual(v, w) {
		t.Fatalf("round trip changed %#v into %#v", v, w)
	}
}
