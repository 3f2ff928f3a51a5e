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

// TXStateFile is the TX watcher's state file in the state directory.
const TXStateFile = "tx_agent_state.json"

// TX is tx_agent_state.json. Its maps are never pruned: forgetting a digest
// or task would let it be shown (and authorized) again, and a lab publishes
// results by the dozen, not the million.
type TX struct {
	Running    bool `json:"running"`
	WatcherPID int  `json:"watcher_pid"`
	// ShownResultDigests: each RX_RESULT.json digest shown, and when first.
	ShownResultDigests map[string]time.Time `json:"shown_result_digests"`
	LastResultCommit   string               `json:"last_result_commit"`
	// CompletedTasks: each TASK_ID whose CAPTURE_COMPLETE was seen, and at
	// which result commit; its READY is never used again (PROTOCOL#trust).
	CompletedTasks map[string]string `json:"completed_tasks"`
	// NodeLooks: each [[nodes]] result branch's LastResultCommit
	// (PROTOCOL#several-nodes).
	NodeLooks map[string]string `json:"node_looks"`
	// TasksOverUnread: each TASK_ID counted as over because a look found more
	// results than it reads, so an unread COMPLETE could not be ruled out
	// (PROTOCOL#trust), and that look's commit.
	TasksOverUnread map[string]string `json:"tasks_over_unread"`
}

// LoadTX reads dir/tx_agent_state.json (see load).
func LoadTX(dir string) (TX, error) { return load[TX](filepath.Join(dir, TXStateFile)) }

// SaveTX writes dir/tx_agent_state.json (see save).
func SaveTX(dir string, s TX) error { return save(filepath.Join(dir, TXStateFile), s) }

func (s *TX) normalize() {
	makeMap(&s.ShownResultDigests)
	makeMap(&s.CompletedTasks)
	makeMap(&s.NodeLooks)
	makeMap(&s.TasksOverUnread)
}

func (s TX) validate() error {
	var errs []error
	if s.WatcherPID < 0 {
		errs = append(errs, fmt.Errorf("watcher_pid %d is negative", s.WatcherPID))
	}
	if s.LastResultCommit != "" && !ident.Commit.MatchString(s.LastResultCommit) {
		errs = append(errs, fmt.Errorf("last_result_commit %q is not a 40-hex commit ID", s.LastResultCommit))
	}
	for _, d := range slices.Sorted(maps.Keys(s.ShownResultDigests)) {
		if !ident.SHA256.MatchString(d) {
			errs = append(errs, fmt.Errorf("shown_result_digests has key %q, not a 64-hex SHA-256", d))
		}
		if s.ShownResultDigests[d].IsZero() {
			errs = append(errs, fmt.Errorf("shown_result_digests[%q] has no time", d))
		}
	}
	errs = validCommits(errs, "completed_tasks", s.CompletedTasks, ident.TaskID.MatchString, "a TASK_ID")
	errs = validCommits(errs, "tasks_over_unread", s.TasksOverUnread, ident.TaskID.MatchString, "a TASK_ID")
	isBranch := func(b string) bool {
		return b != "" && !strings.ContainsFunc(b, func(r rune) bool { return r <= ' ' || r == 0x7f })
	}
	errs = validCommits(errs, "node_looks", s.NodeLooks, isBranch, "a branch name")
	return joinErrs(errs)
}

// validCommits checks a map named key from a name (keyOK, described as
// what) to a commit ID.
func validCommits(errs []error, key string, m map[string]string, keyOK func(string) bool, what string) []error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !keyOK(k) {
			errs = append(errs, fmt.Errorf("%s has key %q, not %s", key, k, what))
		}
		if c := m[k]; !ident.Commit.MatchString(c) {
			errs = append(errs, fmt.Errorf("%s[%q] is %q, not a 40-hex commit ID", key, k, c))
		}
	}
	return errs
}

// CompletedAt returns the result commit a CAPTURE_COMPLETE for taskID was
// seen at, and whether one was.
func (s *TX) CompletedAt(taskID string) (string, bool) {
	c, ok := s.CompletedTasks[taskID]
	return c, ok
}

// MarkCompleted records that a CAPTURE_COMPLETE for taskID was seen at
// commit (the first time only).
func (s *TX) MarkCompleted(taskID, commit string) {
	addOnce(&s.CompletedTasks, taskID, commit)
}

// OverUnreadAt returns the result commit of the look that counted taskID
// as over unread, and whether one did.
func (s *TX) OverUnreadAt(taskID string) (string, bool) {
	c, ok := s.TasksOverUnread[taskID]
	return c, ok
}

// MarkOverUnread records that the look at commit counted taskID as over
// (the first time only).
func (s *TX) MarkOverUnread(taskID, commit string) {
	addOnce(&s.TasksOverUnread, taskID, commit)
}

// NodeLook is the commit tx watch last read branch at ("" for none).
func (s *TX) NodeLook(branch string) string { return s.NodeLooks[branch] }

// SetNodeLook records that tx watch read branch at commit.
func (s *TX) SetNodeLook(branch, commit string) {
	makeMap(&s.NodeLooks)
	s.NodeLooks[branch] = commit
}

// Shown reports whether the result with this digest was already shown.
func (s *TX) Shown(digest string) bool {
	_, ok := s.ShownResultDigests[digest]
	return ok
}

// MarkShown records digest as shown at t (the first time only).
func (s *TX) MarkShown(digest string, t time.Time) {
	addOnce(&s.ShownResultDigests, digest, t)
}

// addOnce sets (*m)[k] to v unless k is there already, making the map
// when it is nil.
func addOnce[V any](m *map[string]V, k string, v V) {
	makeMap(m)
	if _, ok := (*m)[k]; !ok {
		(*m)[k] = v
	}
}

// makeMap makes *m an empty map when it is nil.
func makeMap[K comparable, V any](m *map[K]V) {
	if *m == nil {
		*m = map[K]V{}
	}
}
