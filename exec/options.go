package exec

import "time"

// Options configure the runner stack New builds; zero values take the
// defaults below.
type Options struct {
	Role Role
	// Tools pins tools to absolute paths; the others are looked up on PATH.
	Tools          map[Tool]string
	Audit          *AuditLog     // required
	GitProtocols   []string      // the transports git may use; none: local only
	HooksDir       string        // git's core.hooksPath (default: emptyHooksDir)
	DefaultTimeout time.Duration // bounds Run when Cmd.Timeout is zero
	Grace          time.Duration // between SIGINT and SIGKILL on cancellation
	MaxOutput      int64         // the default cap on captured stdout
	SSHKeygen      string        // pinned, else looked up on PATH
	// NotifyProgram is the [notify] command's (PROTOCOL#notifications);
	// empty means none may run.
	NotifyProgram string
	Environ       []string // the child's is built from it (default os.Environ())
	// SSHCommand is git's core.sshCommand (empty: "ssh"); no config file's
	// is used (PROTOCOL#subprocesses).
	SSHCommand string
	// CredentialHelper is the only one git may run; empty: none
	// (PROTOCOL#subprocesses).
	CredentialHelper string
}

const (
	defaultTimeout   = 60 * time.Second
	defaultGrace     = 5 * time.Second
	defaultMaxOutput = 8 << 20
)
