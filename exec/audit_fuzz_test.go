package exec

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzVerifyAuditLog feeds arbitrary logs to the verifier and the tail
// reader: no panic, and a log the verifier accepts reads back entry by entry.
func FuzzVerifyAuditLog(f *testing.F) {
	path, _ := writeLog(f, 3)
	good, _ := os.ReadFile(path)
	f.Add(good)
	f.Add(good[:len(good)-7])
	f.Add([]byte("{\"hash\":\"x\"}\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "audit.jsonl")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := VerifyAuditLog(p)
		var ce *ChainError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("verify returned an untyped error: %v", err)
		}
		entries, rerr := ReadAuditTail(p, 0)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err == nil && len(entries) != st.Lines {
			t.Fatalf("intact log with %d lines read back as %d entries", st.Lines, len(entries))
		}
		if _, err := ReadAuditTail(p, 2); err != nil {
			t.Fatal(err)
		}
	})
}
