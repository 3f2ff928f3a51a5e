package gitcli

import (
	"strings"
	"testing"
)

// Each ref line of a fetch of several branches counts for the branch it
// names; a line naming none of them (the compact "origin/*" of several)
// leaves every branch possibly moved.
func TestParseFetchUpdates(t *testing.T) {
	branches := []string{"rx-a", "rx-b"}
	ups := parseFetchUpdates([]byte("From /r.git\n   1111111..2222222  rx-b       -> origin/rx-b\n"), "origin", branches)
	if !ups["rx-b"].Updated || ups["rx-b"].New != "2222222" || ups["rx-a"].MayHaveMoved() {
		t.Errorf("one branch moved: %+v", ups)
	}
	ups = parseFetchUpdates([]byte("From /r.git\n   1111111..2222222  rx-b       -> origin/*\n"), "origin", branches)
	if !ups["rx-a"].MayHaveMoved() || !ups["rx-b"].MayHaveMoved() {
		t.Errorf("compact output of several branches must leave each possibly moved: %+v", ups)
	}
	ups = parseFetchUpdates(nil, "origin", branches)
	if len(ups) != 2 || ups["rx-a"].MayHaveMoved() || ups["rx-b"].MayHaveMoved() {
		t.Errorf("silent fetch: %+v", ups)
	}
	got := fetchArgs("origin", branches, "blob:none")
	want := "fetch --no-tags --no-auto-gc --no-recurse-submodules --no-write-fetch-head --filter=blob:none --end-of-options origin " +
		"refs/heads/rx-a:refs/remotes/origin/rx-a refs/heads/rx-b:refs/remotes/origin/rx-b"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("argv\n got %s\nwant %s", s, want)
	}
}
