package exec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeLog(t testing.TB, n int) (string, *AuditLog) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := OpenAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := log.Append(Entry{Event: EventStart, ID: fmt.Sprint(i), Tool: Git, Argv: []string{"git", "version"}}); err != nil {
			t.Fatal(err)
		}
	}
	return path, log
}

func TestAuditChainIntact(t *testing.T) {
	path, log := writeLog(t, 5)
	st, err := VerifyAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := log.Head()
	if st.Lines != 5 || st.Head != head || len(head) != 64 {
		t.Fatalf("stats %+v head %q", st, head)
	}
}

func TestAuditChainDetectsTampering(t *testing.T) {
	cases := []struct {
		name     string
		mutate   func(lines [][]byte) [][]byte
		wantLine int
	}{
		{"changed", func(l [][]byte) [][]byte {
			l[2] = bytes.Replace(l[2], []byte(`"version"`), []byte(`"push"`), 1)
			return l
		}, 3},
		{"deleted", func(l [][]byte) [][]byte { return append(l[:1], l[2:]...) }, 2},
		{"swapped", func(l [][]byte) [][]byte { l[1], l[2] = l[2], l[1]; return l }, 2},
		{"truncated head", func(l [][]byte) [][]byte { return l[1:] }, 1},
		{"torn last line", func(l [][]byte) [][]byte {
			l[4] = l[4][:20]
			return l
		}, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path, _ := writeLog(t, 5)
			data, _ := os.ReadFile(path)
			lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
			lines = tc.mutate(lines)
			out := bytes.Join(lines, []byte("\n"))
			if tc.name != "torn last line" {
				out = append(out, '\n')
			}
			os.WriteFile(path, out, 0o600)
			_, err := VerifyAuditLog(path)
			var ce *ChainError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want *ChainError", err)
			}
			if ce.Line != tc.wantLine {
				t.Fatalf("first broken line %d (%s), want %d", ce.Line, ce.Reason, tc.wantLine)
			}
		})
	}
}

func TestAuditAppendAfterTornLineKeepsEvidence(t *testing.T) {
	path, log := writeLog(t, 2)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"hash":"torn`)
	f.Close()
	if _, err := log.Append(Entry{Event: EventStart, Tool: Git}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "{\"hash\":\"torn\n{\"hash\":") {
		t.Fatalf("torn line not kept on its own line:\n%s", data)
	}
	var ce *ChainError
	if _, err := VerifyAuditLog(path); !errors.As(err, &ce) || ce.Line != 3 {
		t.Fatalf("verify = %v, want line 3 broken", err)
	}
}

func TestReadAuditTail(t *testing.T) {
	path, _ := writeLog(t, 50)
	es, err := ReadAuditTail(path, 3)
	if err != nil || len(es) != 3 || es[0].ID != "47" || es[2].ID != "49" {
		t.Fatalf("tail = %+v, %v", es, err)
	}
}

// BenchmarkAuditAppend shows that appending costs the same at 0 and at
// 100,000 existing lines (the previous hash comes from the last line only).
func BenchmarkAuditAppend(b *testing.B) {
	for _, existing := range []int{0, 100000} {
		b.Run(fmt.Sprintf("lines=%d", existing), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "audit.jsonl")
			if existing > 0 {
				// Build the long log quickly through the same encoder.
				var buf bytes.Buffer
				prev := ""
				for i := 0; i < existing; i++ {
					line, h, err := encodeLine(Entry{Prev: prev, Seq: int64(i + 1), Event: EventEnd, Tool: Git, Argv: []string{"git", "fetch"}})
					if err != nil {
						b.Fatal(err)
					}
					buf.Write(line)
					prev = h
				}
				os.WriteFile(path, buf.Bytes(), 0o600)
			}
			log, err := OpenAuditLog(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := log.Append(Entry{Event: EventStart, Tool: Git, Argv: []string{"git", "fetch", "origin"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Witnessed heads are looked for in the whole file: Found says where each
// is, past a broken line too; a head the log does not hold is absent.
func TestAuditVerifyFindsWitnessedHeads(t *testing.T) {
	path, _ := writeLog(t, 5)
	es, err := ReadAuditTail(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	unknown := strings.Repeat("0", 64)
	st, err := VerifyAuditLog(path, es[1].Hash, es[4].Hash, unknown)
	if err != nil || st.Lines != 5 || st.Found[es[1].Hash] != 2 || st.Found[es[4].Hash] != 5 {
		t.Fatalf("intact: %+v %v", st, err)
	}
	if _, ok := st.Found[unknown]; ok {
		t.Fatal("a head the log does not hold was found")
	}
	// Line 3 changed: the chain breaks there; lines 2 and 5 are still theirs.
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[2] = bytes.Replace(lines[2], []byte(`"version"`), []byte(`"push"`), 1)
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err = VerifyAuditLog(path, es[1].Hash, es[2].Hash, es[4].Hash)
	var ce *ChainError
	if !errors.As(err, &ce) || ce.Line != 3 || st.Lines != 2 {
		t.Fatalf("changed line 3: %+v %v", st, err)
	}
	if st.Found[es[1].Hash] != 2 || st.Found[es[4].Hash] != 5 || st.Found[es[2].Hash] != 0 {
		t.Fatalf("found %v: want lines 2 and 5, not the changed line 3", st.Found)
	}
}
