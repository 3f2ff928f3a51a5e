package exec

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"

	"rfhandoff/ident"
)

// ChainError names the first line of the audit log that breaks the chain.
type ChainError struct {
	Path   string
	Line   int // 1-based
	Reason string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("%s:%d: audit chain broken: %s", e.Path, e.Line, e.Reason)
}

var linePrefix = regexp.MustCompile(`^\{"hash":"(` + ident.SHA256.Inner() + `)",`)

// ValidChainHash reports whether s can be a line's hash: what a pushed
// commit's Audit-Chain-Head trailer must hold.
func ValidChainHash(s string) bool { return ident.SHA256.MatchString(s) }

// VerifyStats summarises a log.
type VerifyStats struct {
	Lines int    // the lines of the intact chain (up to the first broken one)
	Head  string // the hash of its last line
	// Found maps each witnessed head found to its (1-based) line; a line
	// whose content does not match its hash holds none.
	Found map[string]int
}

// VerifyAuditLog checks every line's own hash, its link to the line before
// and its sequence number. It returns *ChainError for the first bad line.
// With witnessed heads (Audit-Chain-Head trailers, PROTOCOL#audit-log) the
// whole file is read, past a broken line too.
func VerifyAuditLog(path string, witnessed ...string) (VerifyStats, error) {
	f, err := openAuditFile(path, os.O_RDONLY)
	if err != nil {
		return VerifyStats{}, err
	}
	defer f.Close()
	want := make(map[string]bool, len(witnessed))
	for _, h := range witnessed {
		want[h] = true
	}
	r := bufio.NewReaderSize(f, 64<<10)
	st := VerifyStats{Found: map[string]int{}}
	var broken error
	var prevSeq int64
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return st, broken
		}
		if err != nil && err != io.EOF {
			return st, err
		}
		reason, hash := checkLine(line, n, st.Head, prevSeq)
		if _, dup := st.Found[hash]; hash != "" && want[hash] && !dup {
			st.Found[hash] = n
		}
		if broken == nil {
			if reason != "" {
				broken = &ChainError{Path: path, Line: n, Reason: reason}
				if len(want) == 0 {
					return st, broken
				}
			} else {
				prevSeq++
				st.Head, st.Lines = hash, n
			}
		}
		if err == io.EOF {
			return st, broken
		}
	}
}

// checkLine judges line n (with its newline) after prev and prevSeq: why it
// breaks the chain, or "", and its hash when its content matches it.
func checkLine(line []byte, n int, prev string, prevSeq int64) (reason, hash string) {
	if line[len(line)-1] != '\n' {
		return "line is not terminated (torn write)", ""
	}
	line = line[:len(line)-1]
	m := linePrefix.FindSubmatch(line)
	if m == nil {
		return "line does not start with its hash", ""
	}
	sum := sha256.Sum256(line[len(m[0]):])
	if hex.EncodeToString(sum[:]) != string(m[1]) {
		return "content does not match its hash (line changed)", ""
	}
	hash = string(m[1])
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		return fmt.Sprintf("not a JSON entry: %v", err), hash
	}
	if e.Prev != prev {
		return fmt.Sprintf("prev hash does not match line %d (a line was removed, inserted or moved)", n-1), hash
	}
	if e.Seq != prevSeq+1 {
		return fmt.Sprintf("sequence %d follows %d", e.Seq, prevSeq), hash
	}
	return "", hash
}

// ReadAuditTail returns the last n entries (all when n <= 0), reading the
// file backwards so a long log costs no more than its tail.
func ReadAuditTail(path string, n int) ([]Entry, error) {
	f, err := openAuditFile(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var data []byte
	if n <= 0 {
		data, err = io.ReadAll(f)
	} else {
		data, _, err = readTail(f, 64<<10, func(tail []byte) bool {
			return bytes.Count(bytes.TrimRight(tail, "\n"), []byte("\n")) >= n
		})
	}
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := make([]Entry, 0, len(lines))
	for _, l := range lines {
		if len(l) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(l, &e); err != nil {
			e = Entry{Event: "unreadable", Error: err.Error()}
		}
		out = append(out, e)
	}
	return out, nil
}
