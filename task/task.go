package task

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"rfhandoff/captureplan"
	"rfhandoff/gate"
	"rfhandoff/node"
)

// DefaultMaxBytes is the protocol's task size limit (64 KiB).
const DefaultMaxBytes = 64 << 10

// Options carry the policy that validation depends on.
type Options struct {
	// TaskBranch is the configured task branch SOURCE_BRANCH must equal.
	// Empty means only the branch-name pattern is checked (offline use).
	TaskBranch string
	// MaxBytes is the size limit; zero or less means DefaultMaxBytes.
	MaxBytes int64
}

// Task is a validated task file.
type Task struct {
	ID               string
	Title            string
	SourceBranch     string
	ExpectedHead     string
	RequiresApproval bool
	HardwareAccess   bool
	RFRX             bool
	RFTX             bool
	AllowCommit      bool
	AllowPush        string // PushNo or PushRXResultOnly
	// Nodes is RX_NODES (PROTOCOL#several-nodes) in the order written; the zero
	// List for a single-node task.
	Nodes node.List
	// Capture is the optional CAPTURE_* fields (PROTOCOL#task-file): what
	// the task's receivers capture; the zero Task where it sets none.
	Capture captureplan.Task

	DeclaredLevel  gate.Level // RISK_LEVEL as written
	DerivedLevel   gate.Level // the minimum the flags demand
	EffectiveLevel gate.Level // the level the task runs at

	// Body is the Markdown after the header exactly as written, line
	// endings included: it may hold anything, so pass it through
	// hiddentext.Sanitize before showing it (which is also what turns a
	// CRLF into LF and shows every other CR, PROTOCOL#hidden-text).
	Body string
	// SHA256 is the hex digest of the exact file bytes (BOM and CRLF
	// included); approvals are bound to it.
	SHA256 string
}

// Flags returns the fields the risk derivation looks at.
func (t *Task) Flags() gate.Flags {
	return gate.Flags{
		HardwareAccess: t.HardwareAccess,
		RFRX:           t.RFRX,
		RFTX:           t.RFTX,
		AllowCommit:    t.AllowCommit,
		PushResult:     t.AllowPush == PushRXResultOnly,
	}
}

// ErrNotForNode is the reason Node gives when the task's RX_NODES does not
// list the node.
var ErrNotForNode = errors.New("not for this node")

// Node says what the task asks of the RX node whose [node] name is name
// (PROTOCOL#several-nodes): for a single-node task "" (its results are version 1),
// for a task whose RX_NODES lists name that name (its results carry it);
// an error when the task lists nodes and name is empty, or is not listed
// (wrapping ErrNotForNode).
func (t *Task) Node(name string) (string, error) {
	switch {
	case t.Nodes.Len() == 0:
		return "", nil
	case name == "":
		return "", fmt.Errorf("task %s names its receivers (RX_NODES = %s), but this node's policy has no [node] name: set [node] name to the one this node is", t.ID, t.Nodes)
	case !t.Nodes.Contains(name):
		return "", fmt.Errorf("task %s: RX_NODES = %s does not list [node] name %q: %w", t.ID, t.Nodes, name, ErrNotForNode)
	}
	return name, nil
}

// ApprovalPhrase is the phrase that must follow [A] for this task, if any.
func (t *Task) ApprovalPhrase() (phrase string, needed bool) {
	return gate.RequiredPhrase(t.EffectiveLevel, t.RFTX, t.ID)
}

// Digest is the lowercase hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
