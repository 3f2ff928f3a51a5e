package exec

import (
	"context"
	"io"
	"time"
)

// Tool is the logical name of an allowlisted program, never a path.
type Tool string

const (
	Git            Tool = "git"
	HackRFInfo     Tool = "hackrf_info"
	HackRFTransfer Tool = "hackrf_transfer"
	HackRFClock    Tool = "hackrf_clock"
)

// Tools lists every allowlisted tool in a stable order.
var Tools = append([]Tool{Git, HackRFInfo, HackRFTransfer, HackRFClock}, clockTools...)

// Role is what a runner may start, and nothing else (PROTOCOL#subprocesses);
// it says nothing of the side a runner serves (notify.Side, Side).
type Role string

const (
	// RoleGit: git and the clock query.
	RoleGit Role = "git"
	// RoleProbe (doctor): also hackrf_info and hackrf_clock -i.
	RoleProbe Role = "probe"
	// RoleCapture (rx capture): also a bounded receive, hackrf_transfer -r.
	RoleCapture Role = "capture"
	// RoleTransmit (tx execute): git, the clock query and a bounded
	// transmit from a file, hackrf_transfer -t.
	RoleTransmit Role = "transmit"
	// RoleNotify: the [notify] command only.
	RoleNotify Role = "notify"
)

// Cmd describes one subprocess. For git the runner prepends its -c pins.
type Cmd struct {
	Tool Tool
	Args []string
	Dir  string
	Env  []string // added to the built environment
	// Stdin, Stdout and Stderr as os/exec's; a set Stdout is not captured,
	// a tail of stderr always is.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Timeout bounds Run (0: the runner's default); for Start, 0 is none.
	Timeout time.Duration
	// MaxOutput caps captured stdout (0: the runner's default); past it
	// the process is stopped.
	MaxOutput int64
	Secrets   []string // scrubbed from the audit log and from errors
	// Signatures (git log, commit, commit-tree) lets the call verify or
	// create SSH signatures with the runner's pinned ssh-keygen.
	Signatures *Signatures
	// DeferObjectCheck, for a blobless git fetch, turns git's object check
	// off: git would ignore fsckLevels, so the caller runs git fsck itself
	// before it accepts anything (PROTOCOL#mirror).
	DeferObjectCheck bool
	// Remote is the URL a git call reaches, written redacted on its audit
	// lines: argv may name only the remote's name.
	Remote string
}

type Result struct {
	Path     string   // resolved absolute executable
	Argv     []string // as executed (argv[0] is Path), not redacted
	Pid      int
	ExitCode int    // -1 when killed by a signal
	Signal   string // the signal that ended it, if any
	Stdout   []byte // nil when Cmd.Stdout was set
	Stderr   []byte // the last stderrTailBytes
	Duration time.Duration
	OutBytes int64 // stdout and stderr
}

const stderrTailBytes = 4096

// Runner runs allowlisted tools; a non-zero exit is an *ExitError with a
// filled Result.
type Runner interface {
	Run(ctx context.Context, c Cmd) (Result, error)
	Start(ctx context.Context, c Cmd) (Process, error)
}

// Process is a started, not yet waited-for subprocess. The context given
// to Start governs cancellation: SIGINT first, SIGKILL after the grace.
type Process interface {
	Pid() int
	Interrupt() error // what Ctrl-C would do
	Wait() (Result, error)
}
