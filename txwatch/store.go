package txwatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"rfhandoff/config"
	"rfhandoff/state"
)

// AuthDirName is the directory of authorization records in the state dir.
const AuthDirName = "tx_authorizations"

// Store is the authorization directory: records, their used markers and
// their outcomes, side by side.
type Store struct {
	Dir string // absolute
}

// StoreOf is the store of a policy (repo.state_dir/tx_authorizations).
func StoreOf(pol config.Policy) (Store, error) {
	dir, err := filepath.Abs(pol.StatePath(AuthDirName))
	if err != nil {
		return Store{}, err
	}
	return Store{Dir: dir}, nil
}

// Path is the file name inside the store.
func (s Store) Path(name string) string { return filepath.Join(s.Dir, name) }

// recordExistsError is a record that is already there: one result gets
// one record, never a second.
type recordExistsError struct{ Path string }

func (e *recordExistsError) Error() string {
	return fmt.Sprintf("authorization record %s already exists; a result is authorized once", e.Path)
}

// recordTemps names the store's temp files (state.CreateTemp), so a
// watcher holding the lock can remove those a killed writer left.
const recordTemps = "record"

// Create writes r as a new record, atomically and never over an existing
// file: the bytes go to a synced temp file that is then hard-linked to its
// name (link fails if the name exists), and the directory is synced.
func (s Store) Create(r Record) (string, error) {
	data, err := encodeRecord(r)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("authorization directory: %w", err)
	}
	path := s.Path(RecordName(r.TaskID, r.ResultSHA256))
	f, err := state.CreateTemp(s.Path(recordTemps))
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := state.WriteSynced(f, data, 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", &recordExistsError{Path: path}
		}
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := state.SyncDir(s.Dir); err != nil {
		return "", fmt.Errorf("write %s: syncing the directory: %w", path, err)
	}
	return path, nil
}

// CleanTemps removes temp files a killed writer left. Call it only while
// holding the tx watcher's lock.
func (s Store) CleanTemps() ([]string, error) { return state.CleanTemps(s.Path(recordTemps)) }

// UsedMarker is the content of a record's used marker.
type UsedMarker struct {
	UsedAt time.Time `json:"used_at"`
	PID    int       `json:"pid"`
}

// alreadyUsedError is a record whose used marker exists: it was consumed.
type alreadyUsedError struct{ Marker string }

func (e *alreadyUsedError) Error() string {
	return fmt.Sprintf("the record was already used (%s exists); a record is used once", e.Marker)
}

// MarkUsed consumes the record named name: it creates the used marker with
// O_CREAT|O_EXCL, so of any number of concurrent callers exactly one
// succeeds, and syncs the marker and the directory before returning, so a
// record once used stays used after a crash. Any other caller gets
// *alreadyUsedError.
func (s Store) MarkUsed(name string, at time.Time) error {
	marker := s.Path(usedName(name))
	f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return &alreadyUsedError{Marker: marker}
	}
	if err != nil {
		return fmt.Errorf("marking the record used (%s): %w", marker, err)
	}
	data, _ := json.Marshal(UsedMarker{UsedAt: at.UTC(), PID: os.Getpid()})
	// The marker exists from here on, even if what follows fails: a record
	// is rather lost than used twice.
	if err := state.WriteSynced(f, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("marking the record used (%s): %w", marker, err)
	}
	if err := state.SyncDir(s.Dir); err != nil {
		return fmt.Errorf("marking the record used (%s): syncing the directory: %w", marker, err)
	}
	return nil
}

// Used reports whether the record named name has a used marker (of any
// kind: a marker that is not a regular file counts too).
func (s Store) Used(name string) (bool, error) {
	_, err := os.Lstat(s.Path(usedName(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	return true, nil
}

// WriteOutcome writes the outcome beside the record, replacing an earlier
// one atomically (the executor writes a provisional outcome before it
// starts hackrf_transfer and the final one after).
func (s Store) WriteOutcome(name string, o Outcome) (string, error) {
	path := s.Path(OutcomeName(name))
	data, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode outcome: %w", err)
	}
	return path, state.WriteFileAtomic(path, append(data, '\n'), 0o600)
}

// ReadRecord reads the record file name from the store: it must be a
// regular file (not a symlink) only this account can change (PROTOCOL
// §4), named <TASK_ID>-<12 hex>.json, whose content parses strictly and
// matches its name.
func (s Store) ReadRecord(name string) (Record, error) {
	path := s.Path(name)
	m := recordNameRe.FindStringSubmatch(name)
	if m == nil {
		return Record{}, fmt.Errorf("%s: not an authorization record name (want <TASK_ID>-<12 hex digits>.json)", path)
	}
	data, err := state.ReadPrivate(path, maxRecordBytes)
	var r Record
	var big *state.TooLargeError
	switch {
	case errors.As(err, &big):
		var p recProblems
		p.add("", "is more than the limit of %d bytes", maxRecordBytes)
		err = p.err()
	case err == nil:
		r, err = ParseRecord(data)
	}
	var ie *invalidRecordError
	if errors.As(err, &ie) {
		ie.Source = path
		return Record{}, ie
	}
	if err != nil {
		return Record{}, err
	}
	if want := RecordName(r.TaskID, r.ResultSHA256); want != name {
		return Record{}, fmt.Errorf("%s: its content is for %s, not this name (a record cannot be copied or renamed)", path, want)
	}
	return r, nil
}

// Resolve turns tx execute's RECORD argument into a record name in the
// store: a bare name, or a path whose directory is the store.
func (s Store) Resolve(arg string) (string, error) {
	if arg == "" {
		return "", errors.New("no record given")
	}
	if !strings.ContainsRune(arg, filepath.Separator) {
		return arg, nil
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	if filepath.Dir(abs) != filepath.Clean(s.Dir) {
		return "", fmt.Errorf("%s is not in the authorization directory %s: only records tx watch wrote there can be executed", arg, s.Dir)
	}
	return filepath.Base(abs), nil
}
