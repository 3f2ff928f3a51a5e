//go:build unix

package exec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// PROTOCOL#audit-log: the audit log is a regular file. Whatever else is at its
// path is refused by every way in (open, append, head, verify, show),
// before it is opened, and nothing is written through it.
func TestAuditLogMustBeARegularFile(t *testing.T) {
	target := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if err := os.WriteFile(target, []byte("kept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind string
		make func(path string) error
	}{
		{"a symlink", func(p string) error { return os.Symlink(target, p) }},
		{"a symlink", func(p string) error { return os.Symlink(os.DevNull, p) }},
		{"a symlink", func(p string) error { return os.Symlink(filepath.Join(t.TempDir(), "dangling"), p) }},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o700) }},
		{"a device", nil}, // the policy names /dev/null itself
	}
	for _, c := range cases {
		path := os.DevNull
		if c.make != nil {
			path = filepath.Join(t.TempDir(), "audit.jsonl")
			if err := c.make(path); err != nil {
				t.Fatal(err)
			}
		}
		check := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, errNotRegular) || !strings.Contains(err.Error(), c.kind) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s of %s: %v, want a refusal naming the path and %q", what, c.kind, err, c.kind)
			}
		}
		_, err := OpenAuditLog(path)
		check("OpenAuditLog", err)
		l := &AuditLog{path: path, now: time.Now, sync: (*os.File).Sync}
		_, err = l.Append(Entry{Event: EventStart, Tool: Git})
		check("Append", err)
		_, err = l.appendEnd(Entry{Event: EventEnd, Tool: Git})
		check("appendEnd", err)
		_, err = l.Head()
		check("Head", err)
		_, err = VerifyAuditLog(path)
		check("VerifyAuditLog", err)
		_, err = ReadAuditTail(path, 0)
		check("ReadAuditTail", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "kept\n" {
		t.Errorf("written through a symlink: %q", data)
	}
}
