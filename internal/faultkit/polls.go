package faultkit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"testing"

	"rfhandoff/internal/gittest"
)

// FetchCalls returns the side's git fetch calls so far.
func FetchCalls(t *testing.T, side *Side) []Call {
	t.Helper()
	return GitCalls(AuditEntries(t, side.AuditPath()), "fetch")
}

// WaitFetches waits until at least n fetch calls satisfy keep.
func WaitFetches(t *testing.T, side *Side, what string, n int, keep func(Call) bool) {
	t.Helper()
	Eventually(t, Wait, what, func() bool {
		return CountCalls(FetchCalls(t, side), keep) >= n
	})
}

// MorePolls waits until side's watcher has started n more fetches than it
// had when called: "several polls later" counted in the audit log, not
// slept, so a loaded machine cannot make it zero polls.
func MorePolls(t *testing.T, side *Side, n int) {
	t.Helper()
	all := func(Call) bool { return true }
	start := CountCalls(FetchCalls(t, side), all)
	WaitFetches(t, side, fmt.Sprintf("%d more polls", n), start+n, all)
}

// TaskAwaits matches the RX watcher's report of a task it cannot offer
// without a terminal.
func TaskAwaits(id string) *regexp.Regexp {
	return regexp.MustCompile(`task awaits approval.*task_id=` + regexp.QuoteMeta(id))
}

// SHA256Hex is b's SHA-256 in hex.
func SHA256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// GitOut runs git in the lab's bare remote.
func GitOut(t *testing.T, lab *Lab, args ...string) string {
	t.Helper()
	return gittest.Git(t, lab.R, lab.Remote.Dir, args...)
}

// LiveProcsMentioning is ProcsMentioning less zombies and this
// test process.
func LiveProcsMentioning(s string) []int {
	var out []int
	for _, pid := range ProcsMentioning(s) {
		if pid != os.Getpid() && Alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}
