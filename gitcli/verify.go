package gitcli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"rfhandoff/exec"
	"rfhandoff/gitcli/gitname"
	"rfhandoff/gitcli/sshsig"
)

// Signature is what git found on one commit's SSH signature, checked
// against an allowed-signers file with the runner's pinned ssh-keygen.
type Signature struct {
	Commit      string // the commit that carries (or lacks) it
	Status      byte   // git's %G?: 'G' good, 'U' unlisted key, 'B' bad, 'N' none, ...
	Principal   string // %GS: the allowed-signers principal (only when good)
	Fingerprint string // %GF: "SHA256:..." of the signing key, when git could read it
	// Claimed is, for a bad signature git gave no fingerprint for, the key
	// and namespace it names (unverified: for the operator only).
	Claimed, ClaimedNamespace string
	CommittedAt               time.Time           // set by VerifyTip: chosen by the author, never a clock
	Cert                      *sshsig.Certificate // set by taskfetch.ReadCert; nil for a plain key
}

func (s Signature) Good() bool { return s.Status == 'G' && s.Principal != "" && s.Fingerprint != "" }

func (s Signature) String() string {
	if s.Good() {
		return s.Principal + " " + s.Fingerprint
	}
	return s.problem()
}

var statusProblems = map[byte]string{
	'G': "good signature without a principal or fingerprint",
	'N': "unsigned",
	'U': "signed by a key that is not in the allowed signers",
	'B': "bad signature (altered, or the key is not allowed for namespace \"git\")",
	'X': "signature or key expired (valid-before in the allowed signers)",
	'Y': "signature or key expired (valid-before in the allowed signers)",
	'R': "signed by a revoked key",
	'E': "signature cannot be checked (not an SSH signature, or ssh-keygen failed)",
}

func (s Signature) problem() string {
	why, ok := statusProblems[s.Status]
	if !ok {
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

// SignatureError is a commit whose signature is not good: callers refuse
// its input like invalid input (a git failure is retried).
type SignatureError struct {
	Path string // the file whose last change it is, or ""
	Sig  Signature
	// Key, for a signature git found good, says why its key may not sign
	// now (its valid-after/valid-before window, PROTOCOL#trust).
	Key error
}

func (e *SignatureError) Error() string {
	what := "commit " + e.Sig.Commit
	if e.Path != "" {
		what += " (last change of " + e.Path + ")"
	}
	if e.Key != nil {
		return what + ": good signature by " + e.Sig.String() + ", but " + e.Key.Error()
	}
	return what + ": " + e.Sig.problem()
}

// TipError is a branch tip that does not speak for a file (PROTOCOL#trust).
type TipError struct {
	Tip, Path  string
	Parents    int
	LastChange string // the commit that last changed the file, when not the tip
}

func (e *TipError) Error() string {
	switch {
	case e.LastChange != "":
		return fmt.Sprintf("the tip %s did not change %s itself (its last change is %s, which a merge or a later commit carried along): the tip must be the commit that wrote it",
			e.Tip, e.Path, e.LastChange)
	case e.Parents == 0:
		return fmt.Sprintf("the tip %s is a root commit: the commit that writes %s must have exactly one parent", e.Tip, e.Path)
	}
	return fmt.Sprintf("the tip %s is a merge (%d parents): the commit that writes %s must have exactly one parent", e.Tip, e.Parents, e.Path)
}

const (
	signatureFormat = "--format=%H%x00%G?%x00%GS%x00%GF%x00"
	tipFormat       = "--format=%H%x00%P%x00%ct%x00%G?%x00%GS%x00%GF%x00"
)

// VerifyLastChange checks the SSH signature of the commit that last
// changed path on commit's history (by history simplification).
func (c *Client) VerifyLastChange(ctx context.Context, commit, path, allowedSigners string) (Signature, error) {
	return c.verify(ctx, commit, path, allowedSigners, false)
}

// VerifyTip checks that tip itself speaks for path (PROTOCOL#trust): a
// single-parent commit that changed path, with a good signature by a key
// in allowedSigners. In one git log -1: with the path it shows the tip
// only when the tip changed it, and %P is the tip's own parents.
func (c *Client) VerifyTip(ctx context.Context, tip, path, allowedSigners string) (Signature, error) {
	return c.verify(ctx, tip, path, allowedSigners, true)
}

func (c *Client) verify(ctx context.Context, commit, path, allowedSigners string, tip bool) (Signature, error) {
	if err := firstErr(ValidObjectID(commit), ValidRepoPath(path)); err != nil {
		return Signature{}, err
	}
	if !filepath.IsAbs(allowedSigners) {
		return Signature{}, invalid("allowed-signers file", allowedSigners, "must be an absolute path")
	}
	format, op := signatureFormat, "log (verify signature)"
	if tip {
		format, op = tipFormat, "log (verify the tip's signature)"
	}
	res, err := c.run(ctx, []string{"log", "-1", "--no-color", format, "--end-of-options", commit, "--", path},
		call{sig: &exec.Signatures{AllowedSigners: allowedSigners, Describe: describeVerify(commit, tip)}})
	if err != nil {
		return Signature{}, &opError{Op: op, Err: err}
	}
	if len(res.Stdout) == 0 {
		return Signature{}, &notFoundError{What: fmt.Sprintf("a commit changing %s on the history of %s", path, commit)}
	}
	sig, parents, err := parseVerify(res.Stdout, tip)
	switch {
	case err != nil:
		return Signature{}, &opError{Op: op, Err: err}
	case tip && sig.Commit != commit:
		return Signature{}, &TipError{Tip: commit, Path: path, LastChange: sig.Commit}
	case tip && parents != 1:
		return Signature{}, &TipError{Tip: commit, Path: path, Parents: parents}
	case !sig.Good():
		c.claim(ctx, &sig)
		return sig, &SignatureError{Path: path, Sig: sig}
	}
	return sig, nil
}

// claim fills in Claimed, best effort: a refusal naming the key is easier to act on.
func (c *Client) claim(ctx context.Context, sig *Signature) {
	if sig.Fingerprint != "" || sig.Status == 'N' {
		return
	}
	if res, err := c.run(ctx, []string{"cat-file", "commit", "--end-of-options", sig.Commit}, call{maxOutput: 1 << 20}); err == nil {
		sig.Claimed, sig.ClaimedNamespace, _ = sshsig.ClaimedKey(res.Stdout)
	}
}

// parseVerify reads one record of tipFormat, or of signatureFormat (one parent).
func parseVerify(out []byte, tip bool) (Signature, int, error) {
	if !tip {
		sig, err := parseSignature(out)
		return sig, 1, err
	}
	f := splitNUL(bytes.TrimSuffix(out, []byte("\n")))
	if len(f) != 6 {
		return Signature{}, 0, fmt.Errorf("tip record has %d fields, want 6: %q", len(f), out)
	}
	parents := strings.Fields(f[1])
	for _, p := range parents {
		if err := ValidObjectID(p); err != nil {
			return Signature{}, 0, fmt.Errorf("tip record: parent: %v", err)
		}
	}
	secs, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return Signature{}, 0, fmt.Errorf("tip record: committer date %q is not a number of seconds", f[2])
	}
	sig, err := signatureFields([]string{f[0], f[3], f[4], f[5]})
	if err != nil {
		return Signature{}, 0, err
	}
	sig.CommittedAt = time.Unix(secs, 0).UTC()
	return sig, len(parents), nil
}

// describeVerify is the audit log's note on verify's git log of commit.
func describeVerify(commit string, tip bool) func([]byte) string {
	return func(out []byte) string {
		if len(out) == 0 {
			return "no commit changed the file"
		}
		sig, parents, err := parseVerify(out, tip)
		switch {
		case err != nil:
			return "unreadable: " + err.Error()
		case tip && sig.Commit != commit:
			return "refused tip " + commit + ": it did not change the file (last change " + sig.Commit + ")"
		case tip && parents != 1:
			return fmt.Sprintf("refused tip %s: %d parents", commit, parents)
		case sig.Good():
			return "good signature on " + sig.Commit + ": " + sig.String()
		}
		return "refused " + sig.Commit + ": " + sig.problem()
	}
}

func parseSignature(out []byte) (Signature, error) {
	f := splitNUL(bytes.TrimSuffix(out, []byte("\n")))
	if len(f) != 4 {
		return Signature{}, fmt.Errorf("signature record has %d fields, want 4: %q", len(f), out)
	}
	return signatureFields(f)
}

func signatureFields(f []string) (Signature, error) {
	commit := f[0]
	if err := ValidObjectID(commit); err != nil {
		return Signature{}, fmt.Errorf("signature record: %v", err)
	}
	if len(f[1]) != 1 || !strings.Contains("GBUXYREN", f[1]) {
		return Signature{}, fmt.Errorf("signature record: status %q is not one of git's %%G? letters", f[1])
	}
	sig := Signature{Commit: commit, Status: f[1][0], Principal: f[2], Fingerprint: f[3]}
	if sig.Principal != "" && !gitname.PrintableLine(sig.Principal) {
		return Signature{}, fmt.Errorf("signature record: principal %q is not printable", sig.Principal)
	}
	if sig.Fingerprint != "" && (!strings.HasPrefix(sig.Fingerprint, "SHA256:") || !gitname.PrintableLine(sig.Fingerprint) || strings.ContainsRune(sig.Fingerprint, ' ')) {
		return Signature{}, fmt.Errorf("signature record: fingerprint %q is not a SHA256 fingerprint", sig.Fingerprint)
	}
	return sig, nil
}
