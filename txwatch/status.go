package txwatch

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"rfhandoff/config"
	"rfhandoff/localfile"
	"rfhandoff/state"
)

const (
	RecordUnused  = "unused"
	RecordUsed    = "used"
	RecordExpired = "expired" // unused and past expires_at
	RecordInvalid = "invalid"
)

type Status struct {
	Running          bool              `json:"running"`
	WatcherPID       int               `json:"watcher_pid"`
	LockHeld         bool              `json:"lock_held"`
	StaleRunning     bool              `json:"stale_running"` // running recorded, but no watcher holds the lock
	ShownResults     int               `json:"shown_results"`
	CompletedTasks   map[string]string `json:"completed_tasks"`   // TASK_ID → the result commit its CAPTURE_COMPLETE was seen at
	TasksOverUnread  map[string]string `json:"tasks_over_unread"` // TASK_ID → the commit of the look past the bound (PROTOCOL#trust)
	LastResultCommit string            `json:"last_result_commit"`
	AuthorizationDir string            `json:"authorization_dir"`
	Records          []RecordStatus    `json:"records"`
	Nodes            *NodesStatus      `json:"nodes,omitempty"` // as tx watch last saw them (PROTOCOL#several-nodes)
}

type RecordStatus struct {
	Name    string    `json:"name"`
	Status  string    `json:"status"`
	Error   string    `json:"error,omitempty"`
	Record  *Record   `json:"record,omitempty"`
	UsedAt  time.Time `json:"used_at,omitzero"`
	Outcome *Outcome  `json:"outcome,omitempty"`
}

// ReadStatus reads the TX state and the records, changing nothing.
func ReadStatus(pol config.Policy, now time.Time) (Status, error) {
	st, err := state.LoadTX(pol.StatePath())
	if err != nil {
		return Status{}, err
	}
	held, pid, err := localfile.Probe(pol.StatePath(state.TXLockFile))
	if err != nil {
		return Status{}, err
	}
	store, err := StoreOf(pol)
	if err != nil {
		return Status{}, err
	}
	s := Status{
		Running: st.Running, WatcherPID: st.WatcherPID, LockHeld: held,
		StaleRunning: st.Running && !held, ShownResults: len(st.ShownResultDigests),
		CompletedTasks: st.CompletedTasks, TasksOverUnread: st.TasksOverUnread,
		LastResultCommit: st.LastResultCommit, AuthorizationDir: store.Dir,
		Records: []RecordStatus{},
	}
	if held && pid > 0 {
		s.WatcherPID = pid
	}
	if s.Nodes, err = readNodes(pol); err != nil {
		return Status{}, err
	}
	list, err := store.list().Load()
	if err != nil {
		return Status{}, err
	}
	entries, err := os.ReadDir(store.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return Status{}, err
	}
	for _, e := range entries { // in name order (os.ReadDir sorts them)
		if recordNameRe.MatchString(e.Name()) {
			s.Records = append(s.Records, recordStatus(store, list, e.Name(), now))
		}
	}
	return s, nil
}

// recordStatus is used when the list says so, whatever the file holds now;
// invalid when the file is not what was issued; else unused or expired.
func recordStatus(store Store, l state.TXRecords, name string, now time.Time) RecordStatus {
	rs := RecordStatus{Name: name}
	rec, sum, err := store.ReadRecordSum(name)
	if err == nil {
		rs.Record = &rec
		err = store.issued(l, name, sum)
	}
	var used *alreadyUsedError
	switch {
	case errors.As(err, &used):
		rs.Status, rs.UsedAt = RecordUsed, used.UsedAt
	case l.Records[name].UsedAt != nil:
		rs.Status, rs.UsedAt, rs.Error = RecordUsed, *l.Records[name].UsedAt, err.Error()
	case err != nil:
		rs.Status, rs.Error = RecordInvalid, err.Error()
	case !now.Before(rec.ExpiresAt):
		rs.Status = RecordExpired
	default:
		rs.Status = RecordUnused
	}
	var o Outcome
	if ok, err := state.ReadJSON(store.Path(OutcomeName(name)), &o); ok {
		if err != nil {
			rs.Error = err.Error()
		} else {
			rs.Outcome = &o
		}
	}
	return rs
}
