package localfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A reader that holds a state file open must not stop the writer from
// replacing it: on Windows a rename over a file open without
// FILE_SHARE_DELETE fails, and Wine refuses it even with that flag, so
// there the writer waits until the reader closes. The reader keeps
// reading what it opened.
func TestReplaceWhileAReaderHoldsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rx_agent_state.json")
	if err := WriteFileAtomic(path, []byte(`{"v":"old"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := OpenNoFollow(path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- WriteFileAtomic(path, []byte(`{"v":"new"}`), 0o600) }()
	var werr error
	finished := false
	select {
	case werr = <-done:
		finished = true
	case <-time.After(300 * time.Millisecond):
	}
	if got, _ := io.ReadAll(r); string(got) != `{"v":"old"}` {
		t.Errorf("the reader that opened it first reads %q, want the old content", got)
	}
	r.Close()
	if !finished {
		select {
		case werr = <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("the replace did not finish after the reader closed")
		}
	}
	if werr != nil {
		t.Fatalf("replacing a file a reader holds: %v", werr)
	}
	var v struct {
		V string `json:"v"`
	}
	if err := readJSON(path, &v); err != nil || v.V != "new" {
		t.Errorf("read = %+v, %v", v, err)
	}
}

func TestOpenNoFollowMissingIsNotExist(t *testing.T) {
	_, err := OpenNoFollow(filepath.Join(t.TempDir(), "missing.json"))
	if !os.IsNotExist(err) {
		t.Errorf("OpenNoFollow of a missing file = %v, want a not-exist error", err)
	}
}
