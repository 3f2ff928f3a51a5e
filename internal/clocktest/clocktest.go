// Package clocktest writes, for tests, the chronyc stand-in of package
// chronystandin (its one home): a stand-in reporting a host clock off
// true time by a chosen offset, what hostclock.Bound reads where the
// HackRF simulator's node keeps time with HACKRF_SIM_PPS_OFFSET_NS
// (PROTOCOL#simulator).
package clocktest

import (
	"testing"

	"rfhandoff/internal/chronystandin"
)

// OffsetEnv is the variable the stand-in reads its offset from
// (chronystandin.OffsetEnv).
const OffsetEnv = chronystandin.OffsetEnv

// Chrony is what the stand-in reports (chronystandin.Chrony).
type Chrony = chronystandin.Chrony

// Write puts a chronyc stand-in reporting c into dir (which the test puts
// on PATH) and returns its path; a failure ends the test.
func Write(t testing.TB, dir string, c Chrony) string {
	t.Helper()
	path, err := chronystandin.Write(dir, c)
	if err != nil {
		t.Fatal(err)
	}
	return path
}
