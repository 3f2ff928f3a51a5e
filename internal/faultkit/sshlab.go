//go:build unix

package faultkit

import (
	"strings"
	"testing"
	"time"

	"rfhandoff/config"
)

// SSHQuick bounds a failing command over ssh: it must end at once, not at
// poll.git_timeout (five times this in the ssh lab), let alone hang.
const SSHQuick = time.Minute

// SSHLab is a Lab whose remote is served by a real sshd on 127.0.0.1,
// with a passphrase-protected key loaded into a real ssh-agent.
type SSHLab struct {
	*Lab
	SSHD  *SSHD
	Agent *SSHAgent
}

// NewSSHLab starts the sshd and the agent; both stop with the test.
func NewSSHLab(t *testing.T) *SSHLab {
	t.Helper()
	lab := NewLab(t)
	s := StartSSHD(t)
	for _, side := range []*Side{lab.RX, lab.Main} {
		side.Policy.Tools.SSHCommand = s.SSHCommand()
		// Far above SSHQuick: a failure that waited for git's timeout
		// fails the test even on a slow machine.
		side.Policy.Poll.GitTimeout = config.Duration{Duration: 5 * SSHQuick}
		side.WritePolicy()
	}
	lab.UseURL(s.URL(lab.Remote.Dir))
	a := StartSSHAgent(t)
	a.Add(s.Key, s.Passphrase)
	return &SSHLab{Lab: lab, SSHD: s, Agent: a}
}

// SSHEnv is side's environment with SSH_AUTH_SOCK set to sock, or unset
// when sock is "".
func SSHEnv(side *Side, sock string) []string {
	var env []string
	for _, kv := range side.Env() {
		if !strings.HasPrefix(kv, "SSH_AUTH_SOCK=") && !strings.HasPrefix(kv, "SSH_AGENT_PID=") {
			env = append(env, kv)
		}
	}
	if sock != "" {
		env = append(env, "SSH_AUTH_SOCK="+sock)
	}
	return env
}
