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

var linePrefix = regexp.MustCompile(`^\{"hash":"([0-9a-f]{64})",`)

// VerifyStats summarises an intact log.
type VerifyStats struct {
	Lines int
	Head  string
}

// VerifyAuditLog checks every line's own hash, its link to the line before
// and its sequence number. It returns *ChainError for the first bad line.
func VerifyAuditLog(path string) (VerifyStats, error) {
	f, err := openAuditFile(path, os.O_RDONLY)
	if err != nil {
		return VerifyStats{}, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var st VerifyStats
	var prevSeq int64
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			return st, nil
		}
		if err != nil && err != io.EOF {
			return st, err
		}
		bad := func(format string, a ...any) (VerifyStats, error) {
			return st, &ChainError{Path: path, Line: n, Reason: fmt.Sprintf(format, a...)}
		}
		if line[len(line)-1] != '\n' {
			return bad("line is not terminated (torn write)")
		}
		line = line[:len(line)-1]
		m := linePrefix.FindSubmatch(line)
		if m == nil {
			return bad("line does not start with its hash")
		}
		rest := line[len(m[0]):]
		sum := sha256.Sum256(rest)
		if hex.EncodeToString(sum[:]) != string(m[1]) {
			return bad("content does not match its hash (line changed)")
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return bad("not a JSON entry: %v", err)
		}
		if e.Prev != st.Head {
			return bad("prev hash does not match line %d (a line was removed, inserted or moved)", n-1)
		}
		if e.Seq != prevSeq+1 {
			return bad("sequence %d follows %d", e.Seq, prevSeq)
		}
		prevSeq = e.Seq
		st.Head = e.Hash
		st.Lines = n
		if err == io.EOF {
			return st, nil
		}
	}
}

// ReadAuditTail returns the last n entries (all when n <= 0), reading the
// file backwards so a long log costs no more than its tail.
func ReadAuditTail(path string, n int) ([]Entry, error) {
	f, err := openAuditFile(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines [][]byte
	if n <= 0 {
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		lines = bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	} else {
		lines, err = tailLines(f, n)
		if err != nil {
			return nil, err
		}
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

func tailLines(f *os.File, n int) ([][]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := st.Size()
	var buf []byte
	for off > 0 {
		step := int64(64 << 10)
		if off < step {
			step = off
		}
		off -= step
		chunk := make([]byte, step)
		if _, err := f.ReadAt(chunk, off); err != nil && err != io.EOF {
			return nil, err
		}
		buf = append(chunk, buf...)
		if bytes.Count(bytes.TrimRight(buf, "\n"), []byte("\n")) >= n {
			break
		}
	}
	lines := bytes.Split(bytes.TrimRight(buf, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}
