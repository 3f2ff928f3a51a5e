package exec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Entry is one line of the audit log. A subprocess gets a "start" line before
// it is started (so the log fails closed: no line, no process) and an "end"
// line, with its pid, when it is gone.
type Entry struct {
	Hash      string    `json:"hash"`
	Prev      string    `json:"prev"`
	Seq       int64     `json:"seq"`
	Time      time.Time `json:"time"`
	Event     string    `json:"event"`
	ID        string    `json:"id"`
	Rfhandoff int       `json:"rfhandoff_pid"` // the writer's pid
	// Role is a subprocess's Role, a decision line's Side, a delivery
	// line's notify.Side.
	Role       string   `json:"role"`
	Tool       Tool     `json:"tool"`
	Path       string   `json:"path,omitempty"`
	Argv       []string `json:"argv,omitempty"`
	Dir        string   `json:"dir,omitempty"`
	Decision   string   `json:"decision,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Pid        int      `json:"pid,omitempty"`
	ExitCode   *int     `json:"exit_code,omitempty"`
	Signal     string   `json:"signal,omitempty"`
	DurationMS *int64   `json:"duration_ms,omitempty"`
	OutBytes   *int64   `json:"output_bytes,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Verified is what a signature-checking git call found (end lines only).
	Verified string `json:"verified,omitempty"`
	// The fields of a delivery line (notify.go).
	Notification string `json:"notification,omitempty"`
	Receiver     string `json:"receiver,omitempty"`
	Host         string `json:"host,omitempty"`
	Status       string `json:"status,omitempty"`
	Attempts     int    `json:"attempts,omitempty"`
	Remote       string `json:"remote,omitempty"` // Cmd.Remote, redacted

	// The fields of a decision line (decision.go), with Reason, ExitCode,
	// Signal and Error; each kind's set is PROTOCOL#audit-log's.
	Kind         string     `json:"kind,omitempty"`
	Command      string     `json:"command,omitempty"`
	TaskID       string     `json:"task_id,omitempty"`
	Level        string     `json:"level,omitempty"`
	TaskSHA256   string     `json:"task_sha256,omitempty"`
	TaskCommit   string     `json:"task_commit,omitempty"`
	ResultCommit string     `json:"result_commit,omitempty"`
	ResultSHA256 string     `json:"result_sha256,omitempty"`
	Nodes        []string   `json:"nodes,omitempty"`
	Record       string     `json:"record,omitempty"`
	RecordSHA256 string     `json:"record_sha256,omitempty"`
	ExpiresAt    *time.Time `json:"expires_at,omitempty"`
	TriesLeft    *int       `json:"tries_left,omitempty"`
	Check        string     `json:"check,omitempty"`
	Verdict      string     `json:"verdict,omitempty"`
	Action       string     `json:"action,omitempty"`
	RFTX         *int       `json:"rf_tx,omitempty"`
	Outcome      string     `json:"outcome,omitempty"`
	Simulated    bool       `json:"simulated,omitempty"`
}

// Audit events; EventDelivery and EventDecision are in notify.go and decision.go.
const (
	EventStart   = "start"
	EventEnd     = "end"
	EventRefused = "refused"
)

const hashPrefix = `{"hash":"`

// AuditLog appends hash-chained JSON lines. Each append locks the file (other
// processes share it) and reads only the last line, however long the log.
type AuditLog struct {
	path string
	mu   sync.Mutex
	now  func() time.Time
	sync func(*os.File) error // a test counts the calls
	// pending: not opened yet; its lines wait in held (PROTOCOL#audit-log).
	pending bool
	held    []Entry
}

// NewPendingAuditLog is a log that holds its lines in memory until Open
// names its file (PROTOCOL#rx-state, PROTOCOL#audit-log): the read-only git
// calls that find whether the log may be written at all run before it may
// exist. A command refused by those checks never opens it.
func NewPendingAuditLog() *AuditLog {
	l := newAuditLog("")
	l.pending = true
	return l
}

func newAuditLog(path string) *AuditLog {
	return &AuditLog{path: path, now: time.Now, sync: (*os.File).Sync}
}

// Open gives a pending log its file and writes the held lines in one
// synced write: all of them, or none (the caller then runs nothing).
func (l *AuditLog) Open(path string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.pending {
		return &auditError{Path: path, Op: "opening", Err: errors.New("the audit log is open already")}
	}
	if err := createAuditFile(path); err != nil {
		return err
	}
	l.path, l.pending = path, false
	held := l.held
	l.held = nil
	if len(held) == 0 {
		return nil
	}
	_, err := l.appendBatch(held, true)
	return err
}

// OpenAuditLog prepares the log at path (createAuditFile).
func OpenAuditLog(path string) (*AuditLog, error) {
	if err := createAuditFile(path); err != nil {
		return nil, err
	}
	return newAuditLog(path), nil
}

// createAuditFile creates the log's directory (0700) and the file (0600)
// when missing, refusing a path that is not a regular file.
func createAuditFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return &auditError{Path: path, Err: err}
	}
	f, err := openAuditFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return &auditError{Path: path, Op: "opening", Err: err}
	}
	return f.Close()
}

func (l *AuditLog) Path() string { return l.path }

// Append writes e as the next line of the chain, filling Hash, Prev, Seq,
// Time and the writer's pid. It returns only after the line is on disk.
func (l *AuditLog) Append(e Entry) (Entry, error) { return l.appendLine(e, true) }

// appendEnd writes a subprocess's end line without waiting for the disk
// (PROTOCOL#audit-log): the next synced line, or Head, makes it durable (a
// sync covers every write before it). A crash between can lose only end
// lines, which then read "interrupted": never a start line.
func (l *AuditLog) appendEnd(e Entry) (Entry, error) { return l.appendLine(e, false) }

func (l *AuditLog) appendLine(e Entry, durable bool) (Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending {
		// Its place in the chain is given when it is written.
		if e.Time.IsZero() {
			e.Time = l.now().UTC()
		}
		e.Rfhandoff = os.Getpid()
		l.held = append(l.held, e)
		return e, nil
	}
	out, err := l.appendBatch([]Entry{e}, durable)
	if err != nil {
		return e, err
	}
	return out[0], nil
}

// appendBatch writes es as the next lines of the chain in one write under
// one lock: all of them, or (cut back) none. The caller holds l.mu.
func (l *AuditLog) appendBatch(es []Entry, durable bool) ([]Entry, error) {
	f, err := openAuditFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return nil, &auditError{Path: l.path, Op: "opening", Err: err}
	}
	defer f.Close()
	if err := lockAppend(f); err != nil {
		return nil, &auditError{Path: l.path, Op: "locking", Err: err}
	}
	last, complete, err := lastLine(f)
	if err != nil {
		return nil, &auditError{Path: l.path, Op: "reading", Err: err}
	}
	prevHash, seq := "", int64(1)
	if len(last) > 0 {
		var prev Entry
		if err := json.Unmarshal(last, &prev); err == nil {
			seq = prev.Seq + 1
		}
		prevHash = lineHash(last)
	}
	var lines []byte
	if !complete {
		// A line torn by a crash stays as evidence; ours starts on its own line.
		lines = append(lines, '\n')
	}
	out := make([]Entry, len(es))
	for i, e := range es {
		e.Prev, e.Seq = prevHash, seq
		if e.Time.IsZero() {
			e.Time = l.now().UTC()
		}
		e.Rfhandoff = os.Getpid()
		line, hash, err := encodeLine(e)
		if err != nil {
			return nil, &auditError{Path: l.path, Op: "encoding", Err: err}
		}
		e.Hash = hash
		out[i] = e
		lines = append(lines, line...)
		prevHash, seq = hash, seq+1
	}
	// A write that fails part-way (ENOSPC) is cut back: a later append
	// would bury a partial line mid-chain.
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, &auditError{Path: l.path, Op: "writing", Err: err}
	}
	if _, err := f.Write(lines); err != nil {
		_ = f.Truncate(size)
		return nil, &auditError{Path: l.path, Op: "writing", Err: err}
	}
	if !durable {
		return out, nil
	}
	// A log that cannot be synced is not a record (PROTOCOL#audit-log).
	if err := l.sync(f); err != nil {
		_ = f.Truncate(size)
		return nil, &auditError{Path: l.path, Op: "syncing", Err: err}
	}
	return out, nil
}

// Head returns the hash of the last line ("" for an empty log), once every
// line is on disk: a pushed commit names it (PROTOCOL#audit-log), so a crash
// after the push must not take the named line away.
func (l *AuditLog) Head() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending {
		return "", errors.New("audit log: not open yet, so it has no head to name")
	}
	// Opened for writing, though only read: Windows syncs no read-only handle.
	f, err := openAuditFile(l.path, os.O_RDWR|os.O_APPEND)
	if err != nil {
		return "", &auditError{Path: l.path, Op: "opening", Err: err}
	}
	defer f.Close()
	if err := l.sync(f); err != nil {
		return "", &auditError{Path: l.path, Op: "syncing", Err: err}
	}
	last, _, err := lastLine(f)
	if err != nil || len(last) == 0 {
		return "", err
	}
	return lineHash(last), nil
}

// encodeLine renders e with its own hash in front: the hash covers every
// byte after `{"hash":"<hex>",` (which includes prev), so a changed line is
// caught at that line and a removed or moved one at the next.
func encodeLine(e Entry) ([]byte, string, error) {
	e.Hash = ""
	body, err := json.Marshal(e)
	if err != nil {
		return nil, "", err
	}
	rest := bytes.TrimPrefix(body, []byte(`{"hash":"",`))
	sum := sha256.Sum256(rest)
	h := hex.EncodeToString(sum[:])
	return fmt.Appendf(nil, "%s%s\",%s\n", hashPrefix, h, rest), h, nil
}

// lineHash is the hash a line claims for itself; Verify checks the claim.
func lineHash(line []byte) string {
	if len(line) >= len(hashPrefix)+64 && bytes.HasPrefix(line, []byte(hashPrefix)) {
		return string(line[len(hashPrefix) : len(hashPrefix)+64])
	}
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// lastLine returns the last line of f without its newline; complete is
// false when the file does not end in a newline (a torn write).
func lastLine(f *os.File) (line []byte, complete bool, err error) {
	tail, all, err := readTail(f, 8192, func(tail []byte) bool {
		return bytes.IndexByte(tail[:len(tail)-1], '\n') >= 0 || len(tail) > 16<<20
	})
	if err != nil || len(tail) == 0 {
		return nil, err == nil, err
	}
	line, complete = bytes.CutSuffix(tail, []byte("\n"))
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		return line[i+1:], complete, nil
	}
	if !all {
		return nil, false, fmt.Errorf("last line longer than 16 MiB")
	}
	return line, complete, nil
}

// readTail reads f backwards, block bytes at a time, until enough(tail)
// or the whole file is read (all).
func readTail(f *os.File, block int64, enough func(tail []byte) bool) (tail []byte, all bool, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	for off := st.Size(); off > 0; {
		n := min(block, off)
		off -= n
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return nil, false, err
		}
		tail = append(buf, tail...)
		if off > 0 && enough(tail) {
			return tail, false, nil
		}
	}
	return tail, true, nil
}
