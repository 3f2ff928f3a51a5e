package exec

import "time"

// Options configure the runner stack New builds.
type Options struct {
	Role Role
	// Tools pins tools to absolute paths; a missing or empty entry is looked
	// up on PATH once, with safeexec. Relative results are refused.
	Tools map[Tool]string
	// Audit receives two lines per subprocess. Required.
	Audit *AuditLog
	// GitProtocols are the transports git may use (protocol.<name>.allow=always);
	// every other transport is denied. Empty means local operations only.
	GitProtocols []string
	// HooksDir is the empty directory given to git as core.hooksPath
	// (default: a private empty directory under the system temp dir).
	HooksDir string
	// DefaultTimeout bounds Run when Cmd.Timeout is zero (default 60s).
	DefaultTimeout time.Duration
	// Grace is the time between SIGINT and SIGKILL on cancellation (default 5s).
	Grace time.Duration
	// MaxOutput is the default cap on captured stdout (default 8 MiB).
	MaxOutput int64
	// SSHKeygen pins the ssh-keygen git uses for signatures (Cmd.Signatures);
	// empty means look it up on PATH once.
	SSHKeygen string
	// NotifyProgram is the program of the [notify] command (PROTOCOL#notifications),
	// resolved once by ResolveNotify; empty means none may run.
	NotifyProgram string
	// Environ is the environment the child's is built from (default os.Environ()).
	Environ []string
	// SSHCommand is the command git's ssh transport runs (core.sshCommand),
	// pinned on every git call; empty means "ssh". A repository's or the
	// operator's own core.sshCommand is never used (PROTOCOL#subprocesses).
	SSHCommand string
	// CredentialHelper is the only credential helper git may run
	// (credential.helper); empty means none at all (PROTOCOL#subprocesses).
	CredentialHelper string
}

const (
	defaultTimeout   = 60 * time.Second
	defaultGrace     = 5 * time.Second
	defaultMaxOutput = 8 << 20
)
