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

// signing refuses a git call that asks to sign without naming its key in
// s: git would then ask the repository's config which program gives one
// (gpg.ssh.defaultKeyCommand) or signs (gpg.program, outside these pins).
// git abbreviates long options and bundles short ones, so every spelling
// counts; a key on the command line is refused too (the key is s's).
func (s *Signatures) signing(args []string) string {
	if len(args) == 0 {
		return ""
	}
	long, short := "gpg-sign", "S"
	switch args[0] {
	case "commit", "commit-tree":
	case "push":
		long, short = "signed", ""
	default:
		return ""
	}
	for _, a := range args[1:] {
		if a == "--end-of-options" || a == "--" {
			break
		}
		name, _, withKey := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		isLong := strings.HasPrefix(a, "--") && name != "" && strings.HasPrefix(long, name)
		isShort := !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && short != "" && strings.Contains(a[1:], short)
		switch {
		case !isLong && !isShort:
			continue
		case args[0] == "push":
			return fmt.Sprintf("git push option %q is not allowed: rfhandoff does not sign pushes", a)
		case withKey || isShort && a != "-S":
			return fmt.Sprintf("git option %q is not allowed: sign with a bare -S, the key given as Signatures.SigningKey", a)
		case s == nil || s.SigningKey == "":
			return fmt.Sprintf("git %s %s without a signing key (Signatures.SigningKey): git would ask the repository's config for the program that gives one", args[0], a)
		}
	}
	return ""
}
