package exec

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A missing log is created by an append (0600), never by a reader.
func TestAuditLogCreatedOnlyByWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if _, err := VerifyAuditLog(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("verify of a missing log: %v", err)
	}
	if _, err := ReadAuditTail(path, 1); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("show of a missing log: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a reader created the log")
	}
	log, err := OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := log.Append(Entry{Event: EventStart, Tool: Git}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Fatalf("log after append: %v %v", st, err)
	}
}
