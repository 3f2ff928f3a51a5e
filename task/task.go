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

const DefaultMaxBytes = 64 << 10

// Options carry the policy that validation depends on.
type Options struct {
	// TaskBranch is the branch SOURCE_BRANCH must equal; empty checks
	// only the branch-name pattern (offline use).
	TaskBranch string
	MaxBytes   int64 // zero or less means DefaultMaxBytes
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
	AllowPush        string           // PushNo or PushRXResultOnly
	Nodes            node.List        // RX_NODES (PROTOCOL#several-nodes); zero for a single node
	Capture          captureplan.Task // the optional capture fields (PROTOCOL#task-file)

	DeclaredLevel  gate.Level // RISK_LEVEL as written
	DerivedLevel   gate.Level // the minimum the flags demand
	EffectiveLevel gate.Level // the level the task runs at

	// Body is the Markdown after the header exactly as written: it may
	// hold anything, so pass it through hiddentext.Sanitize before showing
	// it (PROTOCOL#hidden-text).
	Body string
	// SHA256 is the hex digest of the exact file bytes; approvals are
	// bound to it.
	SHA256 string
}

func (t *Task) Flags() gate.Flags {
	return gate.Flags{
		HardwareAccess: t.HardwareAccess,
		RFRX:           t.RFRX,
		RFTX:           t.RFTX,
		AllowCommit:    t.AllowCommit,
		PushResult:     t.AllowPush == PushRXResultOnly,
	}
}

// ErrNotForNode is the reason Node gives when the task's RX_NODES does not list the node.
var ErrNotForNode = errors.New("not for this node")

// Node is the node name the results of the RX node named name carry (PROTOCOL#several-nodes):
// "" for a single-node task, name when RX_NODES lists it, else an error.
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

func (t *Task) ApprovalPhrase() (phrase string, needed bool) {
	return gate.RequiredPhrase(t.EffectiveLevel, t.RFTX, t.ID)
}

func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
