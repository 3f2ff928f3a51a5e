package exec

import (
	"fmt"
	"path/filepath"
	"strings"
)

// SSHKeygen is never run directly: git runs the runner's resolved copy.
const SSHKeygen Tool = "ssh-keygen"

// Signatures lets one git call verify or create SSH commit signatures,
// with every program git could start for one pinned to the runner's
// ssh-keygen: a repository's config never chooses the verifier or signer.
type Signatures struct {
	AllowedSigners string // absolute path, for verification
	SigningKey     string // absolute path, for commit -S
	// Describe says from stdout what a call verified, for its end line.
	Describe func(stdout []byte) string
}

func ResolveSSHKeygen(pinned string, environ []string) (string, error) {
	return resolve(SSHKeygen, pinned, environ)
}

var signatureSubcommands = map[string]bool{"log": true, "commit": true, "commit-tree": true}

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

func (s *Signatures) flags(keygen string) []string {
	f := []string{
		"-c", "gpg.format=ssh",
		"-c", "gpg.ssh.program=" + keygen,
		// git picks the program by the signature's kind; ssh-keygen
		// refuses an OpenPGP or X.509 one's arguments.
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
