package state

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"rfhandoff/ident"
)

// TXRecordsFile is the list of the authorization records tx watch issued
// and of their use, in the state directory (PROTOCOL#main-pc).
const TXRecordsFile = "tx_records.json"

// txRecordsLockFile guards read-modify-write cycles of TXRecordsFile: tx
// watch adding a record and each tx execute using one hold it for
// milliseconds, so they serialise without waiting on tx watch's own lock.
const txRecordsLockFile = "tx_records.lock"

// TXRecords is .local/tx_records.json: a record is one tx execute may use
// only when this names it with the SHA-256 of its exact bytes and no use;
// its use is recorded here, under the lock, before anything starts. Never
// pruned: one entry (about 200 bytes) per authorization.
type TXRecords struct {
	Records map[string]IssuedRecord `json:"records"`
}

// IssuedRecord is one authorization record as tx watch wrote it.
type IssuedRecord struct {
	SHA256   string     `json:"sha256"` // of the record file's bytes
	IssuedAt time.Time  `json:"issued_at"`
	UsedAt   *time.Time `json:"used_at"` // null while unused
	UsedPID  int        `json:"used_pid"`
}

// TXRecordStore is TXRecordsFile in a state directory.
type TXRecordStore struct {
	Dir string
}

// Path is the file.
func (s *TXRecordStore) Path() string { return filepath.Join(s.Dir, TXRecordsFile) }

// Load reads the list without locking (the file is only ever replaced by
// rename). A missing file is an empty list; a corrupt one a *CorruptError.
func (s *TXRecordStore) Load() (TXRecords, error) { return load[TXRecords](s.Path()) }

func (r *TXRecords) normalize() { makeMap(&r.Records) }

// Update applies fn to the list under its lock and writes the result
// atomically (synced) when fn changed it; an error from fn writes nothing
// and is returned as is.
func (s *TXRecordStore) Update(fn func(*TXRecords) error) error {
	clone := func(r TXRecords) TXRecords { return TXRecords{Records: maps.Clone(r.Records)} }
	_, err := update(s.guard(), s.Load, clone, fn, func(r TXRecords) error {
		if err := r.validate(); err != nil {
			return fmt.Errorf("refusing to write an invalid %s: %w", s.Path(), err)
		}
		return WriteJSON(s.Path(), r)
	})
	return err
}

// CleanTemps removes temp files a killed writer left beside the list,
// under its lock (no writer is mid-write then).
func (s *TXRecordStore) CleanTemps() ([]string, error) { return s.guard().cleanTemps() }

func (s *TXRecordStore) guard() guarded {
	return guarded{lock: filepath.Join(s.Dir, txRecordsLockFile), what: "the authorization list " + s.Path(), path: s.Path()}
}

func (r TXRecords) validate() error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(r.Records)) {
		e := r.Records[name]
		if name == "" || !strings.HasSuffix(name, ".json") || strings.ContainsAny(name, `/\`) || strings.ContainsFunc(name, func(c rune) bool { return c <= ' ' || c == 0x7f }) {
			errs = append(errs, fmt.Errorf("records has key %q, not a record file name", name))
		}
		if !ident.SHA256.MatchString(e.SHA256) {
			errs = append(errs, fmt.Errorf("records[%q].sha256 %q is not a 64-hex SHA-256", name, e.SHA256))
		}
		if e.IssuedAt.IsZero() {
			errs = append(errs, fmt.Errorf("records[%q] has no issued_at", name))
		}
		if e.UsedAt != nil && e.UsedAt.IsZero() {
			errs = append(errs, fmt.Errorf("records[%q] has a zero used_at", name))
		}
		if e.UsedPID < 0 || (e.UsedAt == nil && e.UsedPID != 0) {
			errs = append(errs, fmt.Errorf("records[%q].used_pid %d without a use, or negative", name, e.UsedPID))
		}
	}
	return joinErrs(errs)
}
