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
	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
	"rfhandoff/result"
	"rfhandoff/state"
)

const AuthDirName = "tx_authorizations"

// Store is the authorization directory; the list beside it says which
// records were issued and used.
type Store struct {
	Dir string // absolute
}

func StoreOf(pol config.Policy) (Store, error) {
	dir, err := filepath.Abs(pol.StatePath(AuthDirName))
	if err != nil {
		return Store{}, err
	}
	return Store{Dir: dir}, nil
}

func (s Store) Path(name string) string { return filepath.Join(s.Dir, name) }

type recordExistsError struct{ Path string }

func (e *recordExistsError) Error() string {
	return fmt.Sprintf("authorization record %s already exists; a result is authorized once", e.Path)
}

// recordTemps names the store's temp files, so a watcher holding the lock
// can remove those a killed writer left.
const recordTemps = "record"

// Create writes r atomically, never over an existing file (a hard link
// fails if the name exists), then issues it: the list gets the SHA-256 of
// its bytes. A name once listed is never issued again.
func (s Store) Create(r Record) (string, error) {
	data, err := encodeRecord(r)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("authorization directory: %w", err)
	}
	name := RecordName(r.TaskID, r.ResultSHA256)
	path := s.Path(name)
	f, err := localfile.CreateTemp(s.Path(recordTemps))
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := localfile.WriteSynced(f, data, 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", &recordExistsError{Path: path}
		}
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if err := localfile.SyncDir(s.Dir); err != nil {
		return "", fmt.Errorf("write %s: syncing the directory: %w", path, err)
	}
	err = s.list().Update(func(l *state.TXRecords) error {
		if _, ok := l.Records[name]; ok {
			return &recordExistsError{Path: path}
		}
		l.Records[name] = state.IssuedRecord{SHA256: result.SHA256(data), IssuedAt: time.Now().UTC()}
		return nil
	})
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("issuing %s: %w", path, err)
	}
	return path, nil
}

func (s Store) list() *state.TXRecordStore {
	return &state.TXRecordStore{Dir: filepath.Dir(s.Dir)}
}

func (s Store) ListPath() string { return s.list().Path() }

// CleanTemps removes temp files a killed writer left; call it only while
// holding the tx watcher's lock.
func (s Store) CleanTemps() ([]string, error) {
	left, err := localfile.CleanTemps(s.Path(recordTemps))
	if err != nil {
		return left, err
	}
	more, err := s.list().CleanTemps()
	return append(left, more...), err
}

type alreadyUsedError struct {
	List   string
	UsedAt time.Time
}

func (e *alreadyUsedError) Error() string {
	return fmt.Sprintf("the record was already used at %s (%s says so); a record is used once",
		e.UsedAt.Format(time.RFC3339), e.List)
}

// notIssuedError is a record file tx watch did not issue as it is (no
// entry, or one for other bytes). It is never used.
type notIssuedError struct {
	Path, Why string
}

func (e *notIssuedError) Error() string {
	return fmt.Sprintf("%s is not the record tx watch issued: %s; only a record tx watch wrote after the phrase, byte for byte, "+
		"can be executed (authorize the result again)", e.Path, e.Why)
}

// issued is nil when l lets tx execute use record name with SHA-256 sum.
func (s Store) issued(l state.TXRecords, name, sum string) error {
	e, ok := l.Records[name]
	switch {
	case !ok:
		return &notIssuedError{Path: s.Path(name), Why: "the authorization list " + s.ListPath() + " has no entry for it"}
	case e.SHA256 != sum:
		return &notIssuedError{Path: s.Path(name),
			Why: fmt.Sprintf("its bytes have SHA-256 %s, the ones issued %s (it was changed after it was written)", sum, e.SHA256)}
	case e.UsedAt != nil:
		return &alreadyUsedError{List: s.ListPath(), UsedAt: *e.UsedAt}
	}
	return nil
}

// Usable is issued, reading the list without its lock.
func (s Store) Usable(name, sum string) error {
	l, err := s.list().Load()
	if err != nil {
		return fmt.Errorf("cannot tell whether the record was issued and is unused: %w", err)
	}
	return s.issued(l, name, sum)
}

// MarkUsed consumes record name under the list's lock: of concurrent
// callers exactly one succeeds. A failure after the write leaves it used:
// rather lost than used twice.
func (s Store) MarkUsed(name, sum string, at time.Time) error {
	return s.list().Update(func(l *state.TXRecords) error {
		if err := s.issued(*l, name, sum); err != nil {
			return err
		}
		e := l.Records[name]
		used := at.UTC()
		e.UsedAt, e.UsedPID = &used, os.Getpid()
		l.Records[name] = e
		return nil
	})
}

// Used reports whether record name was used; an unreadable list says yes.
func (s Store) Used(name string) (bool, error) {
	l, err := s.list().Load()
	if err != nil {
		return true, err
	}
	e, ok := l.Records[name]
	return ok && e.UsedAt != nil, nil
}

func (s Store) WriteOutcome(name string, o Outcome) (string, error) {
	path := s.Path(OutcomeName(name))
	data, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode outcome: %w", err)
	}
	return path, localfile.WriteFileAtomic(path, append(data, '\n'), 0o600)
}

func (s Store) ReadRecord(name string) (Record, error) {
	r, _, err := s.ReadRecordSum(name)
	return r, err
}

// ReadRecordSum reads record name, a file only this account can change
// (PROTOCOL#rx-state), and the SHA-256 of its bytes.
func (s Store) ReadRecordSum(name string) (Record, string, error) {
	path := s.Path(name)
	if !recordNameRe.MatchString(name) {
		return Record{}, "", fmt.Errorf("%s: not an authorization record name (want <TASK_ID>-<12 hex digits>.json)", path)
	}
	data, err := private.Read(path, maxRecordBytes)
	var r Record
	var big *localfile.TooLargeError
	switch {
	case errors.As(err, &big):
		err = recProblems{&recordFieldError{Reason: fmt.Sprintf("is more than the limit of %d bytes", maxRecordBytes)}}.err()
	case err == nil:
		r, err = ParseRecord(data)
	}
	var ie *invalidRecordError
	if errors.As(err, &ie) {
		ie.Source = path
	}
	if err != nil {
		return Record{}, "", err
	}
	if want := RecordName(r.TaskID, r.ResultSHA256); want != name {
		return Record{}, "", fmt.Errorf("%s: its content is for %s, not this name (a record cannot be copied or renamed)", path, want)
	}
	return r, result.SHA256(data), nil
}

// Resolve turns tx execute's RECORD argument (a name, or a path in the
// store) into a record name.
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
