// Package faultkit holds the servers and helpers the fault and security
// suites run rfhandoff against, all on 127.0.0.1 and all bounded in time:
//
//   - Daemon: a real `git daemon` serving a base path, stopped and started
//     again on the same port (a remote that goes away and comes back);
//   - HTTPRemote: an authenticated smart-HTTP remote (`git http-backend` run
//     by net/http/cgi inside an httptest server demanding Basic auth);
//   - SSHD, SSHAgent: a real OpenSSH server on 127.0.0.1 with its own host
//     key and config, a passphrase-protected client key, and a real
//     ssh-agent (unix only);
//   - BlackHole: a TCP listener that accepts and never answers;
//   - Proxy: a loopback proxy in front of a daemon that cuts a connection
//     after N bytes from the server;
//   - Lab: a bare remote with a task and a result branch, an RX and a MAIN
//     checkout and a policy file for each side;
//   - Account: a throwaway second OS account (useradd as root on Linux,
//     userdel when the test ends; skipped elsewhere) whose processes stand
//     for an agent working in a checkout as an account of its own;
//   - helpers that run the real rfhandoff binary and read its audit log.
//
// Every server stops itself when its test ends. Processes are started with
// os.StartProcess (git daemon: `daemon` is not, and must not be, an
// allowlisted git subcommand) or through prompttest; rfhandoff's own git
// goes through the exec package as in production.
//
// It is test infrastructure: only _test.go files import it.
//
// What it offers: NewLab (two machines, a remote, both policies),
// NewAccount, LetReach and Chmod (a second account and what it may reach), the servers
// (StartDaemon, StartHTTP, StartBlackHole, StartProxy, StartSSHD,
// StartSSHAgent), real SSH keys and signed commits, and readers of the audit
// log (AuditEntries, GitCalls) that tests assert on.
package faultkit
