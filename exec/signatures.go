package exec

import (
	"fmt"
	"path/filepath"
	"strings"
)

// SSHKeygen is the program git starts to make and check SSH signatures. It
// is never run directly: a Cmd with Signatures set makes git run the copy
// the runner resolved, and the audit line of that git call names it.
const SSHKeygen Tool = "ssh-keygen"

// Signatures asks the runner to let one git call verify or create SSH
// commit signatures. The runner then pins every program git could start for
// a signature to its own resolved ssh-keygen, so a repository's config
// (gpg.program, gpg.ssh.program, gpg.x509.program) can never choose the
// verifier or the signer.
type Signatures struct {
	// AllowedSigners is the absolute path of an allowed-signers file
	// (ssh-keygen(1) ALLOWED SIGNERS), for verification.
	AllowedSigners string
	// SigningKey is the absolute path of a key file (a public key whose
	// private half is in ssh-agent, or a private key), for commit -S.
	SigningKey string
	// Describe, when set, says what a finished call verified (the signer,
	// or why there is none) from its stdout; the runner writes it on the
	// call's end line in the audit log, so `audit show` can name it.
	Describe func(stdout []byte) string
}

// ResolveSSHKeygen resolves the ssh-keygen git is given for signatures:
// pinned when it is an absolute path, else looked up on environ's PATH.
func ResolveSSHKeygen(pinned string, environ []string) (string, error) {
	return resolve(SSHKeygen, pinned, environ)
}

// signatureSubcommands are the git subcommands that may carry Signatures:
// log reads %G? and friends, commit and commit-tree sign.
var signatureSubcommands = map[string]bool{"log": true, "commit": true, "commit-tree": true}

// check returns why s cannot be used for a git call with args, or "".
func (s *Signatures) check(args []string) string {
	if s.AllowedSigners == "" && s.SigningKey == "" {
		return "signature options name neither an allowed-signers file nor a signing key"
	}
	if len(args) == 0 || !signatureSubcommands[args[0]] {
		return "signature options are only for git log, commit and commit-tree"
	}
	for _, p := range []struct{ what, v string }{{"allowed-signers file", s.AllowedSigners}, {"signing key", s.SigningKey}} {
		if p.v == "" {
			continue
		}
		if !filepath.IsAbs(p.v) || strings.ContainsAny(p.v, "\x00\n\r") {
			return fmt.Sprintf("%s %q must be a clean absolute path", p.what, p.v)
		}
	}
	return ""
}

// flags are the -c options that pin the signature programs to keygen.
func (s *Signatures) flags(keygen string) []string {
	f := []string{
		"-c", "gpg.format=ssh",
		"-c", "gpg.ssh.program=" + keygen,
		// A commit may carry an OpenPGP or X.509 signature instead; git
		// picks the program by the signature's kind, so those are pinned
		// too (ssh-keygen refuses their arguments: a bad signature).
		"-c", "gpg.program=" + keygen,
		"-c", "gpg.x509.program=" + keygen,
	}
	if s.AllowedSigners != "" {
		f = append(f, "-c", "gpg.ssh.allowedSignersFile="+s.AllowedSigners)
	}
	if s.SigningKey != "" {
		f = append(f, "-c", "user.signingkey="+s.SigningKey)
	}
	return f
}
