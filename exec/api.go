package exec

import (
	"context"
	"io"
	"time"
)

// Tool is the logical name of an allowlisted program, never a path.
type Tool string

// The only programs rfhandoff ever runs.
const (
	Git            Tool = "git"
	HackRFInfo     Tool = "hackrf_info"
	HackRFTransfer Tool = "hackrf_transfer"
	HackRFClock    Tool = "hackrf_clock"
)

// Tools lists every allowlisted tool in a stable order: the clock tools are
// this platform's (ClockTool first, then chronyc on Unix).
var Tools = append([]Tool{Git, HackRFInfo, HackRFTransfer, HackRFClock}, clockTools...)

// Role is what a runner may start, and nothing else (PROTOCOL#subprocesses): each
// command holds the role its own work needs, and the roles are named for
// what they permit. A role says nothing of the side a runner serves: the
// side a notification or a decision line names is its own value
// (notify.Side, Side).
type Role string

const (
	// RoleGit may start git and the clock query: the watchers, the
	// checks, approval, publishing, task new, audit verify.
	RoleGit Role = "git"
	// RoleProbe (doctor) may also ask a HackRF what it is: hackrf_info
	// and hackrf_clock -i. It can run no hackrf_transfer.
	RoleProbe Role = "probe"
	// RoleCapture (rx capture) may start git, the clock query,
	// hackrf_info, hackrf_clock -i and a bounded receive: hackrf_transfer
	// -r. It cannot express a transmission.
	RoleCapture Role = "capture"
	// RoleTransmit (tx execute) may start git, the clock query and a
	// bounded transmit from a file: hackrf_transfer -t.
	RoleTransmit Role = "transmit"
	// RoleNotify may start the notification command ([notify] command)
	// and nothing else.
	RoleNotify Role = "notify"
)

// Cmd describes one subprocess. Args follow the program name; for git the
// runner prepends its hardening -c options itself.
type Cmd struct {
	Tool Tool
	Args []string
	Dir  string
	// Env holds extra KEY=VALUE pairs set by rfhandoff's own code (for
	// example a commit identity). They are added to the built environment.
	Env   []string
	Stdin io.Reader
	// Stdout and Stderr, when set, receive the stream as it is produced.
	// Stdout is then not captured; a tail of stderr is always kept.
	Stdout io.Writer
	Stderr io.Writer
	// Timeout bounds Run (0: the runner's default). For Start, 0 means the
	// process lives until its context ends or it exits.
	Timeout time.Duration
	// MaxOutput caps captured stdout in bytes (0: the runner's default).
	// A process that writes more is stopped and Run returns *outputLimitError.
	MaxOutput int64
	// Secrets are extra strings scrubbed from the audit log and from errors.
	Secrets []string
	// Signatures, for git log, commit and commit-tree only, lets the call verify or
	// create SSH signatures with the runner's pinned ssh-keygen.
	Signatures *Signatures
	// DeferObjectCheck, for a blobless git fetch only, turns git's own check
	// of the received objects off for this call: for such a fetch git
	// ignores the levels of fsckLevels, so the caller checks the new pack
	// with git fsck itself before it accepts anything (PROTOCOL#mirror).
	DeferObjectCheck bool
	// Remote, for a git call that talks to a remote, is the URL it
	// reaches (the caller checked that git rewrites nothing): written,
	// its credentials redacted, on the call's audit lines, since argv
	// names only the remote's name or nothing of a URL kept out of it.
	Remote string
}

// Result is what a finished process left behind.
type Result struct {
	Path     string   // resolved absolute executable
	Argv     []string // full argv as executed (argv[0] is Path), not redacted
	Pid      int
	ExitCode int    // -1 when killed by a signal
	Signal   string // the signal that ended it, if any
	Stdout   []byte // captured stdout (nil when Cmd.Stdout was set)
	Stderr   []byte // tail of stderr (at most stderrTailBytes)
	Duration time.Duration
	// OutBytes counts every byte written to stdout and stderr.
	OutBytes int64
}

// stderrTailBytes is how much of stderr a Result and an ExitError keep.
const stderrTailBytes = 4096

// Runner runs allowlisted tools. Run waits for the process; Start returns a
// Process for long-running programs (the capture) to be waited on later.
// A non-zero exit is returned as *ExitError together with a filled Result.
type Runner interface {
	Run(ctx context.Context, c Cmd) (Result, error)
	Start(ctx context.Context, c Cmd) (Process, error)
}

// Process is a started, not yet waited-for subprocess.
type Process interface {
	Pid() int
	// Interrupt sends SIGINT to the process group (what Ctrl-C would do).
	Interrupt() error
	// Wait waits for the exit. The context given to Start governs
	// cancellation: SIGINT first, SIGKILL to the group after the grace.
	Wait() (Result, error)
}
