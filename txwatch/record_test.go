package txwatch

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"rfhandoff/config"
)

func sampleRecord() Record {
	at := time.Date(2026, 3, 14, 10, 15, 12, 500_000_000, time.UTC)
	bound := []NodeBinding{{ResultBranch: "rx-node", ResultCommit: strings.Repeat("ab", 20), ResultSHA256: strings.Repeat("cd", 32)}}
	return NewRecord("RX_OTA_0001", bound, at.Add(110*time.Second), at, at.Add(25*time.Second), ParamsOf(config.Default()))
}

func TestRecordRoundTrip(t *testing.T) {
	rec := sampleRecord()
	data, err := encodeRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseRecord(data)
	if err != nil {
		t.Fatalf("ParseRecord(encodeRecord): %v\n%s", err, data)
	}
	if !got.AuthorizedAt.Equal(rec.AuthorizedAt) || !got.ExpiresAt.Equal(rec.ExpiresAt) || got.TX != rec.TX ||
		got.ResultSHA256 != rec.ResultSHA256 || got.ResultCommit != rec.ResultCommit || got.TaskID != rec.TaskID {
		t.Fatalf("round trip changed the record:\n%+v\n%+v", rec, got)
	}
	for _, key := range []string{`"rf_tx_started": false`, `"rf_tx": 0`, `"result_commit"`, `"expires_at"`, `"authorized_at"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("encoded record lacks %s:\n%s", key, data)
		}
	}
	if RecordName(rec.TaskID, rec.ResultSHA256) != "RX_OTA_0001-cdcdcdcdcdcd.json" {
		t.Errorf("RecordName = %s", RecordName(rec.TaskID, rec.ResultSHA256))
	}
	if OutcomeName("X-1.json") != "X-1.outcome.json" {
		t.Error("outcome name")
	}
}

const sampleFP = "SHA256:jjwEBVxzyM+X59mDGwDuCmLLMTzMJQXXyt0yu5RIdaI"

// A record without result_signer (no signature required) and one with it
// both round-trip; the field is written only when set.
func TestRecordResultSigner(t *testing.T) {
	rec := sampleRecord()
	data, err := encodeRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "result_signer") {
		t.Errorf("record without a signer writes result_signer:\n%s", data)
	}
	rec.Nodes[0].ResultSigner = sampleFP
	if data, err = encodeRecord(rec); err != nil {
		t.Fatal(err)
	}
	got, err := ParseRecord(data)
	if err != nil || got.Nodes[0].ResultSigner != sampleFP {
		t.Fatalf("round trip: %+v, %v\n%s", got, err, data)
	}
}

func TestEncodeRecordRefusesAnInvalidRecord(t *testing.T) {
	rec := sampleRecord()
	rec.ExpiresAt = rec.AuthorizedAt
	if _, err := encodeRecord(rec); err == nil {
		t.Fatal("encoded a record that expires when it is authorized")
	}
	rec = sampleRecord()
	rec.RFTX = 1
	if _, err := encodeRecord(rec); err == nil {
		t.Fatal("encoded a record with rf_tx 1")
	}
}

func encoded(t *testing.T) string {
	t.Helper()
	data, err := encodeRecord(sampleRecord())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Every way a record can be malformed is refused, and all problems of one
// record are reported together, each naming its key.
func TestParseRecordStrict(t *testing.T) {
	good := encoded(t)
	rep := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	tests := []struct {
		name string
		doc  string
		keys []string
	}{
		{"duplicate key", rep(`"rf_tx": 0,`, `"rf_tx": 0, "rf_tx": 0,`), []string{"rf_tx"}},
		{"case variant", rep(`"task_id"`, `"Task_ID"`), []string{"Task_ID", "task_id"}},
		{"long s folding", rep(`"result_sha256"`, `"reſult_sha256"`), []string{"reſult_sha256", "result_sha256"}},
		{"unknown key", rep(`"rf_tx": 0,`, `"rf_tx": 0, "note": "x",`), []string{"note"}},
		{"missing key", rep(`"result_branch": "rx-node",`, ``), []string{"result_branch"}},
		{"float for an integer", rep(`"rf_tx": 0`, `"rf_tx": 0.0`), []string{"rf_tx"}},
		{"string for an integer", rep(`"duration_s": 10`, `"duration_s": "10"`), []string{"tx.duration_s"}},
		{"exponent for an integer", rep(`"frequency_hz": 433920000`, `"frequency_hz": 4.3392e8`), []string{"tx.frequency_hz"}},
		{"null", rep(`"amp": false`, `"amp": null`), []string{"tx.amp"}},
		{"no offset", rep(`"authorized_at": "2026-03-14T10:15:12.5Z"`, `"authorized_at": "2026-03-14T10:15:12.5"`), []string{"authorized_at"}},
		{"offset out of range", rep(`"authorized_at": "2026-03-14T10:15:12.5Z"`, `"authorized_at": "2026-03-14T10:15:12.5+24:00"`), []string{"authorized_at"}},
		{"integer with a fraction", rep(`"duration_s": 10`, `"duration_s": 10.0`), []string{"tx.duration_s"}},
		{"rf_tx_started true", rep(`"rf_tx_started": false`, `"rf_tx_started": true`), []string{"rf_tx_started"}},
		{"rf_tx 1", rep(`"rf_tx": 0`, `"rf_tx": 1`), []string{"rf_tx"}},
		{"expires before authorized", rep(`"expires_at": "2026-03-14T10:15:37.5Z"`, `"expires_at": "2026-03-14T10:15:00Z"`), []string{"expires_at"}},
		{"uppercase digest", rep(strings.Repeat("cd", 32), strings.Repeat("CD", 32)), []string{"result_sha256"}},
		{"short commit", rep(strings.Repeat("ab", 20), "abab"), []string{"result_commit"}},
		{"bad task id", rep(`"RX_OTA_0001"`, `"rx_ota_0001"`), []string{"task_id"}},
		{"tx not an object", rep(`"tx": {`, `"tx": [], "x": {`), []string{"x", "tx"}},
		{"nested unknown", rep(`"action": "fake",`, `"action": "fake", "serial": "1",`), []string{"tx.serial"}},
		{"nested missing", rep(`"iq_file": ""`, `"iq_fil": ""`), []string{"tx.iq_fil", "tx.iq_file"}},
		{"gain over 47", rep(`"tx_vga_gain_db": 0`, `"tx_vga_gain_db": 48`), []string{"tx.tx_vga_gain_db"}},
		{"unknown action", rep(`"action": "fake"`, `"action": "shell"`), []string{"tx.action"}},
		{"hackrf_transfer without iq_file", rep(`"action": "fake"`, `"action": "hackrf_transfer"`), []string{"tx.iq_file"}},
		{"wrong version", rep(`"record_version": 2`, `"record_version": 3`), []string{"record_version"}},
		{"trailing data", good + "{}", []string{""}},
		{"two problems at once", rep(`"rf_tx": 0`, `"rf_tx": "0", "Extra": 1`), []string{"Extra", "rf_tx"}},
		{"array at the top", "[]", []string{""}},
		{"empty", "", []string{""}},
		{"BOM", "\xEF\xBB\xBF" + good, []string{""}},
		{"invalid UTF-8", rep(`"fake"`, "\"fa\xffke\""), []string{""}},
		{"too large", good + strings.Repeat(" ", maxRecordBytes), []string{""}},
		{"deep nesting", rep(`"tx": {`, `"tx": {"a": {"b": {"c": {"d": {}}}},`), []string{""}},
		{"result_signer not a fingerprint", rep(`"result_branch": "rx-node",`+"\n      ", `"result_branch": "rx-node", "result_signer": "alice",`), []string{"nodes[0].result_signer"}},
		{"result_signer empty", rep(`"result_branch": "rx-node",`+"\n      ", `"result_branch": "rx-node", "result_signer": "",`), []string{"nodes[0].result_signer"}},
		{"result_signer twice", rep(`"result_branch": "rx-node",`+"\n      ", `"result_branch": "rx-node", "result_signer": "`+sampleFP+`", "result_signer": "`+sampleFP+`",`), []string{"nodes[0].result_signer"}},
		{"result_signer outside a binding", rep(`"rf_tx": 0,`, `"rf_tx": 0, "result_signer": "`+sampleFP+`",`), []string{"result_signer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRecord([]byte(tt.doc))
			var ie *invalidRecordError
			if !errors.As(err, &ie) {
				t.Fatalf("ParseRecord: %v, want *invalidRecordError", err)
			}
			if got := ie.Keys(); !slices.Equal(got, tt.keys) {
				t.Fatalf("problem keys %q, want %q\n%v", got, tt.keys, err)
			}
			var fe *recordFieldError
			if !errors.As(err, &fe) {
				t.Fatal("errors.As cannot reach a *recordFieldError")
			}
		})
	}
}

func TestStoreCreateIsExclusive(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "auth")}
	rec := sampleRecord()
	path, err := s.Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	rec.ExpiresAt = rec.ExpiresAt.Add(time.Hour)
	_, err = s.Create(rec)
	var ee *recordExistsError
	if !errors.As(err, &ee) {
		t.Fatalf("second Create: %v, want *recordExistsError", err)
	}
	again, _ := os.ReadFile(path)
	if string(first) != string(again) {
		t.Fatal("the second Create changed the record")
	}
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
	}
	if st, _ := os.Stat(path); modesKept && st.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v", st.Mode())
	}
}

func TestStoreMarkUsedOnceAmongMany(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "auth")}
	path, err := s.Create(sampleRecord())
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	_, sum, err := s.ReadRecordSum(name)
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.MarkUsed(name, sum, time.Now())
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		var au *alreadyUsedError
		switch {
		case err == nil:
			won++
		case !errors.As(err, &au):
			t.Errorf("unexpected: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d callers used the record, want 1", won)
	}
	if used, err := s.Used(name); !used || err != nil {
		t.Fatalf("Used = %v, %v", used, err)
	}
}

// A record is usable only as tx watch issued it: used once, whatever is
// deleted beside it; not when its bytes changed; not when the list is
// gone (deleting fails closed); never issued twice under one name.
func TestStoreRecordsCannotBeForgedByEditingFiles(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "auth")}
	path, err := s.Create(sampleRecord())
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	orig, _ := os.ReadFile(path)
	_, sum, err := s.ReadRecordSum(name)
	if err != nil || s.Usable(name, sum) != nil {
		t.Fatalf("a fresh record is not usable: %v %v", err, s.Usable(name, sum))
	}
	var ni *notIssuedError
	var au *alreadyUsedError

	// Edited: a later expiry, still a well-formed record of that name.
	edited := strings.Replace(string(orig), `"expires_at": "2026-`, `"expires_at": "2027-`, 1)
	if edited == string(orig) {
		t.Fatalf("the test did not edit the record:\n%s", orig)
	}
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	_, esum, err := s.ReadRecordSum(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Usable(name, esum); !errors.As(err, &ni) || !strings.Contains(err.Error(), "changed after it was written") {
		t.Errorf("edited record: %v, want not issued", err)
	}
	if err := s.MarkUsed(name, esum, time.Now()); !errors.As(err, &ni) {
		t.Errorf("MarkUsed of the edited record: %v, want not issued", err)
	}
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}

	// Used, then the outcome and any marker deleted: still used.
	if err := s.MarkUsed(name, sum, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{OutcomeName(name), strings.TrimSuffix(name, ".json") + ".used"} {
		os.Remove(s.Path(f))
	}
	if err := s.Usable(name, sum); !errors.As(err, &au) {
		t.Errorf("used record after deleting files beside it: %v, want already used", err)
	}
	if err := s.MarkUsed(name, sum, time.Now()); !errors.As(err, &au) {
		t.Errorf("MarkUsed again: %v, want already used", err)
	}

	// The record deleted and written again under its name: not issued
	// again, and the new file is removed.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	rec := sampleRecord()
	rec.AuthorizedAt = rec.AuthorizedAt.Add(time.Second)
	var ee *recordExistsError
	if _, err := s.Create(rec); !errors.As(err, &ee) {
		t.Errorf("a second Create under a used name: %v, want *recordExistsError", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the record refused issue was left: %v", err)
	}

	// The list deleted: nothing is usable.
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(s.ListPath()); err != nil {
		t.Fatal(err)
	}
	if err := s.Usable(name, sum); !errors.As(err, &ni) || !strings.Contains(err.Error(), "has no entry for it") {
		t.Errorf("after deleting the list: %v, want not issued", err)
	}
}

func TestStoreCleanTemps(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	left := filepath.Join(s.Dir, ".record.tmp-123")
	keep := filepath.Join(s.Dir, "RX_OTA_0001-cdcdcdcdcdcd.json")
	for _, p := range []string{left, keep} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := s.CleanTemps()
	if err != nil || len(removed) != 1 || removed[0] != left {
		t.Fatalf("CleanTemps = %v, %v", removed, err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatal("removed a record")
	}
}

// A record of version 1 (a single receiver's record kept apart) is refused
// with what to do; a receiver without a node name is the only one.
func TestParseRecordOldVersionAndUnnamedReceiver(t *testing.T) {
	old := strings.Replace(encoded(t), `"record_version": 2`, `"record_version": 1`, 1)
	if _, err := ParseRecord([]byte(old)); err == nil || !strings.Contains(err.Error(), "an earlier rfhandoff wrote it; authorize the result again with tx watch") {
		t.Errorf("a version 1 record: %v", err)
	}
	rec := sampleRecord()
	rec.Nodes = append(rec.Nodes, NodeBinding{Node: "rx-b", ResultBranch: "rx-b", ResultCommit: strings.Repeat("1", 40), ResultSHA256: strings.Repeat("b", 64)})
	rec.ResultSHA256 = SetDigest(rec.Nodes)
	raw, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseRecord(raw)
	var ie *invalidRecordError
	if !errors.As(err, &ie) || !slices.Equal(ie.Keys(), []string{"nodes[0].node"}) {
		t.Errorf("an unnamed receiver beside a node: %v", err)
	}
}
