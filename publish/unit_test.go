package publish

import (
	"errors"
	"os"
	"path/filepath"
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
		var se *StagedSetError
		if err := checkStaged([]gitcli.StagedChange{ok[0], ch}, files); !errors.As(err, &se) || se.Change != ch {
			t.Errorf("staged %+v: error %v, want a *StagedSetError for it", ch, err)
		}
	}
}

// TestWriteFileRefusesFIFO: a special file at a target path is refused,
// never opened (opening a FIFO would block).
func TestWriteFileRefusesFIFO(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "r"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(root, "r", "RX_RESULT.json")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var ue *UnsafePathError
	if err := writeFile(root, file{path: "r/RX_RESULT.json", data: []byte("{}")}); !errors.As(err, &ue) || ue.Reason != "is not a regular file (a named pipe)" {
		t.Fatalf("error %v, want an *UnsafePathError for a named pipe", err)
	}
}

func TestBlobID(t *testing.T) {
	// git hash-object of an empty file and of "hello\n".
	for data, want := range map[string]string{
		"":        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
		"hello\n": "ce013625030ba8dba906f756967f9e9ca394464a",
	} {
		if got := blobID([]byte(data)); got != want {
			t.Errorf("blobID(%q) = %s, want %s", data, got, want)
		}
	}
}
