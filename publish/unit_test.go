package publish

import (
	"fmt"
	"strings"
	"testing"

	"rfhandoff/gitcli"
)

func TestCheckStaged(t *testing.T) {
	files := []file{{path: "r/RX_RESULT.json"}, {path: "r/RX_RESULT.md"}}
	ok := []gitcli.StagedChange{
		{Status: 'A', OldMode: "000000", NewMode: gitcli.ModeFile, Path: "r/RX_RESULT.json"},
		{Status: 'M', OldMode: gitcli.ModeExec, NewMode: gitcli.ModeFile, Path: "r/RX_RESULT.md"},
	}
	if err := checkStaged(ok, files); err != nil {
		t.Errorf("valid staged set refused: %v", err)
	}
	if err := checkStaged(nil, files); err != nil {
		t.Errorf("empty staged set refused: %v", err)
	}
	bad := []gitcli.StagedChange{
		{Status: 'A', NewMode: gitcli.ModeFile, Path: "r/other.txt"},
		{Status: 'A', NewMode: gitcli.ModeSymlink, Path: "r/RX_RESULT.json"},
		{Status: 'A', NewMode: gitcli.ModeExec, Path: "r/RX_RESULT.json"},
		{Status: 'D', NewMode: "000000", Path: "r/RX_RESULT.md"},
		{Status: 'T', NewMode: gitcli.ModeFile, Path: "r/RX_RESULT.md"},
		{Status: 'A', NewMode: gitcli.ModeGitlink, Path: "r/RX_RESULT.md"},
	}
	for _, ch := range bad {
		want := fmt.Sprintf("refusing to commit: staged %s (%c, mode %s): ", ch.Path, ch.Status, ch.NewMode)
		if err := checkStaged([]gitcli.StagedChange{ok[0], ch}, files); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("staged %+v: error %v, want one starting %q", ch, err, want)
		}
	}
}

// TestCheckLevelsRefusesNonFiles: what git trees can hold at a result
// path besides a directory or a regular file is refused, naming the path;
// an executable result file is replaced, not refused.
func TestCheckLevelsRefusesNonFiles(t *testing.T) {
	files := []file{{path: "r/RX_RESULT.json"}, {path: "r/RX_RESULT.md"}}
	tree := gitcli.TreeEntry{Mode: gitcli.ModeTree, Type: "tree", ID: strings.Repeat("1", 40), Path: "r"}
	cases := []struct {
		entries []gitcli.TreeEntry
		path    string // "" = accepted
		reason  string
	}{
		{[]gitcli.TreeEntry{tree, {Mode: gitcli.ModeGitlink, Type: "commit", ID: strings.Repeat("2", 40), Path: "r/RX_RESULT.json"}},
			"r/RX_RESULT.json", "is not a regular file (a submodule)"},
		{[]gitcli.TreeEntry{{Mode: gitcli.ModeGitlink, Type: "commit", ID: strings.Repeat("2", 40), Path: "r"}},
			"r", "is not a directory (a submodule)"},
		{[]gitcli.TreeEntry{{Mode: gitcli.ModeExec, Type: "blob", ID: strings.Repeat("2", 40), Path: "r"}},
			"r", "is not a directory (a regular file)"},
		{[]gitcli.TreeEntry{tree, {Mode: gitcli.ModeExec, Type: "blob", ID: strings.Repeat("2", 40), Path: "r/RX_RESULT.md"}}, "", ""},
		{nil, "", ""},
	}
	for _, tc := range cases {
		err := checkLevels(t.Context(), nil, tc.entries, "r", files)
		want := "refusing to write the result: " + tc.path + " " + tc.reason + " on the result branch"
		switch {
		case tc.path == "" && err != nil:
			t.Errorf("%+v refused: %v", tc.entries, err)
		case tc.path != "" && (err == nil || err.Error() != want):
			t.Errorf("%+v: error %v, want %q", tc.entries, err, want)
		}
	}
}
