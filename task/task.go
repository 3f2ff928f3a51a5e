// Package task reads the task file, docs/handoff/NEXT_RX_TASK.md (PROTOCOL
// §3): a header of KEY = VALUE lines, then free Markdown shown to the
// operator. Parse validates the header completely and reports every problem
// at once; it never trusts the body, which is only ever displayed after
// hiddentext.Sanitize.
//
// Hidden text (PROTOCOL §16): characters a terminal does not show are
// escaped, not refused, in the body. hiddentext.Sanitize writes each as
// <U+XXXX>, and that one rendering is what the approval prompt, rx check,
// rx status and TASK.md all carry, so the operator approves exactly the
// text an agent reads; an author's stray zero-width space or soft hyphen
// costs a visible escape, not a rejected task. A title holding one is
// invalid, with the positions named. The digest (SHA256) is always of the
// raw bytes.
package task

import (
	"crypto/sha256"
	"encoding/hex"

	"rfhandoff/gate"
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

	DeclaredLevel  gate.Level // RISK_LEVEL as written
	DerivedLevel   gate.Level // the minimum the flags demand
	EffectiveLevel gate.Level // the level the task runs at

	// Body is the Markdown after the header exactly as written, line
	// endings included: it may hold anything, so pass it through
	// hiddentext.Sanitize before showing it (which is also what turns a
	// CRLF into LF and shows every other CR, PROTOCOL §16).
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

// ApprovalPhrase is the phrase that must follow [A] for this task, if any.
func (t *Task) ApprovalPhrase() (phrase string, needed bool) {
	return gate.RequiredPhrase(t.EffectiveLevel, t.RFTX, t.ID)
}

// Digest is the lowercase hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
