package gitcli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"rfhandoff/exec"
)

// Signature is what git found on one commit's SSH signature, checked
// against an allowed-signers file with the runner's pinned ssh-keygen.
type Signature struct {
	Commit      string // the commit that carries (or lacks) it
	Status      byte   // git's %G?: 'G' good, 'U' unlisted key, 'B' bad, 'N' none, ...
	Principal   string // %GS: the allowed-signers principal (only when good)
	Fingerprint string // %GF: "SHA256:..." of the signing key, when git could read it
	// Claimed is, for a bad signature git gave no fingerprint for, the
	// key and namespace the signature names (unverified: for the
	// operator's information only).
	Claimed, ClaimedNamespace string
}

// Good reports whether a listed key made a valid signature for namespace git.
func (s Signature) Good() bool { return s.Status == 'G' && s.Principal != "" && s.Fingerprint != "" }

// String names the signer for people: "alice@lab SHA256:...".
func (s Signature) String() string {
	if s.Good() {
		return s.Principal + " " + s.Fingerprint
	}
	return s.problem()
}

// problem says why a signature is not good, naming the key when git knows it.
func (s Signature) problem() string {
	var why string
	switch s.Status {
	case 'G':
		why = "good signature without a principal or fingerprint"
	case 'N':
		why = "unsigned"
	case 'U':
		why = "signed by a key that is not in the allowed signers"
	case 'B':
		why = "bad signature (altered, or the key is not allowed for namespace \"git\")"
	case 'X', 'Y':
		why = "signature or key expired (valid-before in the allowed signers)"
	case 'R':
		why = "signed by a revoked key"
	case 'E':
		why = "signature cannot be checked (not an SSH signature, or ssh-keygen failed)"
	default:
		why = fmt.Sprintf("unknown signature status %q", s.Status)
	}
	switch {
	case s.Fingerprint != "":
		why += " (key " + s.Fingerprint + ")"
	case s.Claimed != "":
		why += fmt.Sprintf(" (the signature names key %s and namespace %q)", s.Claimed, s.ClaimedNamespace)
	}
	return why
}

// SignatureError is a commit whose signature is not good. Callers refuse
// the input it carries like invalid input (errors.As to tell it from a git
// failure, which is retried).
type SignatureError struct {
	Path string // the file whose last change it is, or ""
	Sig  Signature
}

func (e *SignatureError) Error() string {
	what := "commit " + e.Sig.Commit
	if e.Path != "" {
		what += " (last change of " + e.Path + ")"
	}
	return what + ": " + e.Sig.problem()
}

// signatureFormat prints the commit, %G?, principal and fingerprint, each
// NUL-terminated.
const signatureFormat = "--format=%H%x00%G?%x00%GS%x00%GF%x00"

// VerifyLastChange checks the SSH signature of the commit that last changed
// path on commit's history (git log's history simplification: a merge that
// took the file from one parent is followed into that parent). allowedSigners
// is an absolute allowed-signers file. It returns the signature when it is
// good, a *SignatureError when it is not, *NotFoundError when no commit on
// the history touched path. Only commit and tree objects are read, so it
// works in a blobless clone.
func (c *Client) VerifyLastChange(ctx context.Context, commit, path, allowedSigners string) (Signature, error) {
	if err := ValidObjectID(commit); err != nil {
		return Signature{}, err
	}
	if err := ValidRepoPath(path); err != nil {
		return Signature{}, err
	}
	if !filepath.IsAbs(allowedSigners) {
		return Signature{}, invalid("allowed-signers file", allowedSigners, "must be an absolute path")
	}
	res, err := c.run(ctx, []string{"log", "-1", "--no-color", signatureFormat, "--end-of-options", commit, "--", path},
		call{sig: &exec.Signatures{AllowedSigners: allowedSigners, Describe: describeSignature}})
	if err != nil {
		return Signature{}, &Error{Op: "log (verify signature)", Err: err}
	}
	if len(res.Stdout) == 0 {
		return Signature{}, &NotFoundError{What: fmt.Sprintf("a commit changing %s on the history of %s", path, commit)}
	}
	sig, err := parseSignature(res.Stdout)
	if err != nil {
		return Signature{}, &Error{Op: "log (verify signature)", Err: err}
	}
	if !sig.Good() {
		if sig.Fingerprint == "" && sig.Status != 'N' {
			// Best effort: a refusal that names the key is easier to act on.
			if res, err := c.run(ctx, []string{"cat-file", "commit", "--end-of-options", sig.Commit}, call{maxOutput: 1 << 20}); err == nil {
				sig.Claimed, sig.ClaimedNamespace, _ = claimedKey(res.Stdout)
			}
		}
		return sig, &SignatureError{Path: path, Sig: sig}
	}
	return sig, nil
}

// describeSignature is the audit log's note on a verifying git log.
func describeSignature(out []byte) string {
	if len(out) == 0 {
		return "no commit changed the file"
	}
	sig, err := parseSignature(out)
	switch {
	case err != nil:
		return "unreadable: " + err.Error()
	case sig.Good():
		return "good signature on " + sig.Commit + ": " + sig.String()
	}
	return "refused " + sig.Commit + ": " + sig.problem()
}

// parseSignature reads one record of signatureFormat.
func parseSignature(out []byte) (Signature, error) {
	f := splitNUL(bytes.TrimSuffix(out, []byte("\n")))
	if len(f) != 4 {
		return Signature{}, fmt.Errorf("signature record has %d fields, want 4: %q", len(f), out)
	}
	commit := f[0]
	if err := ValidObjectID(commit); err != nil {
		return Signature{}, fmt.Errorf("signature record: %v", err)
	}
	if len(f[1]) != 1 || !strings.Contains("GBUXYREN", f[1]) {
		return Signature{}, fmt.Errorf("signature record: status %q is not one of git's %%G? letters", f[1])
	}
	sig := Signature{Commit: commit, Status: f[1][0], Principal: f[2], Fingerprint: f[3]}
	if sig.Principal != "" && !printableLine(sig.Principal) {
		return Signature{}, fmt.Errorf("signature record: principal %q is not printable", sig.Principal)
	}
	if sig.Fingerprint != "" && (!strings.HasPrefix(sig.Fingerprint, "SHA256:") || !printableLine(sig.Fingerprint) || strings.ContainsRune(sig.Fingerprint, ' ')) {
		return Signature{}, fmt.Errorf("signature record: fingerprint %q is not a SHA256 fingerprint", sig.Fingerprint)
	}
	return sig, nil
}
