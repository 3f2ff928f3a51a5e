package state

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/ident"
)

// RXStateFile is the RX watcher's state file in the state directory.
const RXStateFile = "rx_agent_state.json"

// RX is .local/rx_agent_state.json (PROTOCOL#rx-state). Every field is always
// written (no omitempty: ReadJSON's key check relies on it).
type RX struct {
	LastSeenTaskID      string `json:"last_seen_task_id"`
	LastSeenTaskCommit  string `json:"last_seen_task_commit"`
	LastCompletedTaskID string `json:"last_completed_task_id"`
	// LastApprovedTaskID is written only after an approval succeeded.
	LastApprovedTaskID string `json:"last_approved_task_id"`
	DeferredTaskID     string `json:"deferred_task_id"`
	Running            bool   `json:"running"`
	WatcherPID         int    `json:"watcher_pid"`
	// Approval binds the last approval to the exact task bytes.
	Approval *Approval `json:"approval"`
	// CompletedTaskIDs lists every completed TASK_ID: none is offered again.
	CompletedTaskIDs []string `json:"completed_task_ids"`
	// SeenTaskDigests maps a TASK_ID to the SHA-256 of the first task file
	// seen under it, to catch a task whose content changed under one ID.
	SeenTaskDigests map[string]string `json:"seen_task_digests"`
	// CaptureInProgress is the capture whose COMPLETE is still due; null when none.
	CaptureInProgress *CaptureInProgress `json:"capture_in_progress"`
	// NotifiedTaskSHA256 is the last task approval_needed was sent for, so
	// a cron rx check sends it once (PROTOCOL#notifications).
	NotifiedTaskSHA256 string `json:"notified_task_sha256"`
	// AcceptedTask is the last accepted task branch tip (PROTOCOL#trust: no
	// going back); null before the first under trust.task_signers.
	AcceptedTask *AcceptedTask `json:"accepted_task"`
	// ReplacedTaskIDs lists every TASK_ID the RX side saw replaced by
	// another: none is offered again (PROTOCOL#trust).
	ReplacedTaskIDs []string `json:"replaced_task_ids"`
}

// AcceptedTask is a task branch tip that passed the trust checks of
// PROTOCOL#trust, and what its task file was.
type AcceptedTask struct {
	Commit string `json:"commit"`
	// TaskSHA256 is the SHA-256 of the task file at Commit, "" when the
	// commit holds no task file (none written yet, or withdrawn).
	TaskSHA256 string `json:"task_sha256"`
}

// Approval is an approval bound to the SHA-256 of the task file as read
// from git, with the commit it was read from (PROTOCOL#task-file).
type Approval struct {
	TaskID     string    `json:"task_id"`
	TaskSHA256 string    `json:"task_sha256"`
	Commit     string    `json:"commit"`
	ApprovedAt time.Time `json:"approved_at"`
	// Signer names who signed the approved task's last change, when the
	// policy required a signature (trust.task_signers).
	Signer *Signer `json:"signer,omitempty"`
	// Capture is the effective capture approved with the task: rx capture
	// runs nothing else (PROTOCOL#task-file). Null in older files, whose
	// approval must be given again.
	Capture *captureplan.Plan `json:"capture"`
}

// Signer is the key that made a good commit signature: its principal in
// the allowed-signers file and its SHA256 fingerprint.
type Signer struct {
	Principal   string `json:"principal"`
	Fingerprint string `json:"fingerprint"`
}

// LoadRX reads dir/rx_agent_state.json (see load).
func LoadRX(dir string) (RX, error) { return load[RX](filepath.Join(dir, RXStateFile)) }

// SaveRX writes dir/rx_agent_state.json (see save).
func SaveRX(dir string, s RX) error { return save(filepath.Join(dir, RXStateFile), s) }

func (s *RX) normalize() {
	if s.CompletedTaskIDs == nil {
		s.CompletedTaskIDs = []string{}
	}
	makeMap(&s.SeenTaskDigests)
	if s.ReplacedTaskIDs == nil {
		s.ReplacedTaskIDs = []string{}
	}
	if c := s.CaptureInProgress; c != nil && c.CompleteNotes == nil {
		// A copy: the caller's record is not changed under it.
		s.CaptureInProgress = c.Clone()
		s.CaptureInProgress.CompleteNotes = []string{}
	}
}

func (s RX) validate() error {
	var errs []error
	optID := func(key, v string) {
		if v != "" && !ident.TaskID.MatchString(v) {
			errs = append(errs, fmt.Errorf("%s %q is not a TASK_ID", key, v))
		}
	}
	optID("last_seen_task_id", s.LastSeenTaskID)
	optID("last_completed_task_id", s.LastCompletedTaskID)
	optID("last_approved_task_id", s.LastApprovedTaskID)
	optID("deferred_task_id", s.DeferredTaskID)
	if s.LastSeenTaskCommit != "" && !ident.Commit.MatchString(s.LastSeenTaskCommit) {
		errs = append(errs, fmt.Errorf("last_seen_task_commit %q is not a 40-hex commit ID", s.LastSeenTaskCommit))
	}
	if s.NotifiedTaskSHA256 != "" && !ident.SHA256.MatchString(s.NotifiedTaskSHA256) {
		errs = append(errs, fmt.Errorf("notified_task_sha256 %q is not a 64-hex SHA-256", s.NotifiedTaskSHA256))
	}
	if s.WatcherPID < 0 {
		errs = append(errs, fmt.Errorf("watcher_pid %d is negative", s.WatcherPID))
	}
	if a := s.Approval; a != nil {
		if !ident.TaskID.MatchString(a.TaskID) {
			errs = append(errs, fmt.Errorf("approval.task_id %q is not a TASK_ID", a.TaskID))
		}
		if !ident.SHA256.MatchString(a.TaskSHA256) {
			errs = append(errs, fmt.Errorf("approval.task_sha256 %q is not a 64-hex SHA-256", a.TaskSHA256))
		}
		if !ident.Commit.MatchString(a.Commit) {
			errs = append(errs, fmt.Errorf("approval.commit %q is not a 40-hex commit ID", a.Commit))
		}
		if a.ApprovedAt.IsZero() {
			errs = append(errs, fmt.Errorf("approval.approved_at is missing"))
		}
		if sg := a.Signer; sg != nil {
			if err := sg.validate(); err != nil {
				errs = append(errs, fmt.Errorf("approval.signer: %w", err))
			}
		}
		if c := a.Capture; c != nil {
			errs = c.Validate("approval.capture", errs)
		}
	}
	errs = validIDList(errs, "completed_task_ids", s.CompletedTaskIDs)
	errs = validIDList(errs, "replaced_task_ids", s.ReplacedTaskIDs)
	if a := s.AcceptedTask; a != nil {
		if !ident.Commit.MatchString(a.Commit) {
			errs = append(errs, fmt.Errorf("accepted_task.commit %q is not a 40-hex commit ID", a.Commit))
		}
		if a.TaskSHA256 != "" && !ident.SHA256.MatchString(a.TaskSHA256) {
			errs = append(errs, fmt.Errorf("accepted_task.task_sha256 %q is neither empty (no task file) nor a 64-hex SHA-256", a.TaskSHA256))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(s.SeenTaskDigests)) {
		if !ident.TaskID.MatchString(id) {
			errs = append(errs, fmt.Errorf("seen_task_digests has key %q, not a TASK_ID", id))
		}
		if d := s.SeenTaskDigests[id]; !ident.SHA256.MatchString(d) {
			errs = append(errs, fmt.Errorf("seen_task_digests[%q] = %q is not a 64-hex SHA-256", id, d))
		}
	}
	if c := s.CaptureInProgress; c != nil {
		errs = c.validate(errs)
	}
	return joinErrs(errs)
}

// validIDList checks a list of TASK_IDs named key: each valid, none twice.
func validIDList(errs []error, key string, ids []string) []error {
	seen := map[string]bool{}
	for _, id := range ids {
		if !ident.TaskID.MatchString(id) {
			errs = append(errs, fmt.Errorf("%s holds %q, not a TASK_ID", key, id))
		} else if seen[id] {
			errs = append(errs, fmt.Errorf("%s holds %s twice", key, id))
		}
		seen[id] = true
	}
	return errs
}

// Replaced reports whether id was seen replaced by another TASK_ID; a
// replaced TASK_ID is never offered again (PROTOCOL#trust).
func (s *RX) Replaced(id string) bool { return slices.Contains(s.ReplacedTaskIDs, id) }

// SeeTask records id, read at commit, as the last task seen; the task seen
// before it under another ID is from now on replaced.
func (s *RX) SeeTask(id, commit string) {
	if prev := s.LastSeenTaskID; prev != "" && prev != id && !s.Replaced(prev) {
		s.ReplacedTaskIDs = append(s.ReplacedTaskIDs, prev)
	}
	s.LastSeenTaskID, s.LastSeenTaskCommit = id, commit
}

// Completed reports whether id was ever completed; a completed TASK_ID is
// never offered again.
func (s *RX) Completed(id string) bool {
	return slices.Contains(s.CompletedTaskIDs, id) || (id != "" && s.LastCompletedTaskID == id)
}

// MarkCompleted records id as completed (idempotent) and drops a deferral
// of it.
func (s *RX) MarkCompleted(id string) {
	s.LastCompletedTaskID = id
	if !slices.Contains(s.CompletedTaskIDs, id) {
		s.CompletedTaskIDs = append(s.CompletedTaskIDs, id)
	}
	if s.DeferredTaskID == id {
		s.DeferredTaskID = ""
	}
}

// SeeDigest records digest as the content of task id the first time id is
// seen, and reports whether a later digest differs from that first one
// (a revised task must get a new ID).
func (s *RX) SeeDigest(id, digest string) (first string, changed bool) {
	if prev, ok := s.SeenTaskDigests[id]; ok {
		return prev, prev != digest
	}
	addOnce(&s.SeenTaskDigests, id, digest)
	return digest, false
}

var principalPattern = regexp.MustCompile(`^[[:graph:] ]{1,256}$`)

// validate checks a signer read back from a state or record file.
func (s Signer) validate() error {
	var errs []error
	if s.Principal == "" || !principalPattern.MatchString(s.Principal) {
		errs = append(errs, fmt.Errorf("principal %q must be non-empty printable text", s.Principal))
	}
	if !ident.Fingerprint.MatchString(s.Fingerprint) {
		errs = append(errs, fmt.Errorf("fingerprint %q is not a SHA256 key fingerprint", s.Fingerprint))
	}
	return joinErrs(errs)
}

// PlanChanges lists how now differs from the capture plan a approved, by
// policy key; nil when it is the same (or a is nil). An approval from
// before approvals bound a plan differs in one line that says so.
func (a *Approval) PlanChanges(now captureplan.Plan) []string {
	switch {
	case a == nil:
		return nil
	case a.Capture == nil:
		return []string{"the approval predates approvals that bind the capture parameters"}
	}
	return a.Capture.Changes(now)
}
