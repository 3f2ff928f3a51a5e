package gitcli

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"rfhandoff/gitcli/gitname"
)

// Patterns for values that come from data. Branch, remote and path names
// follow gitname, the one set of rules the policy loader uses too.
var (
	objectIDRE   = regexp.MustCompile(`^[0-9a-f]{40}$`)
	shortIDRE    = regexp.MustCompile(`^[0-9a-f]{4,39}$`)
	trailerKeyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,63}$`)
)

const maxURLLen = 2048

func invalid(arg, value, format string, a ...any) *invalidArgError {
	return &invalidArgError{Arg: arg, Value: value, Reason: fmt.Sprintf(format, a...)}
}

// named turns a gitname reason into an *invalidArgError, nil for "".
func named(arg, value, reason string) error {
	if reason == "" {
		return nil
	}
	return &invalidArgError{Arg: arg, Value: value, Reason: reason}
}

// ValidBranch checks a branch name (see gitname.Branch). Names are always
// passed as refs/heads/<name>.
func ValidBranch(name string) error { return named("branch", name, gitname.Branch(name)) }

// validRemoteName checks a remote name such as "origin" (see gitname.Remote).
func validRemoteName(name string) error { return named("remote", name, gitname.Remote(name)) }

// ValidObjectID checks a full 40-character lowercase hex object ID.
func ValidObjectID(id string) error {
	if !objectIDRE.MatchString(id) {
		return invalid("object ID", id, "must be 40 lowercase hex characters")
	}
	return nil
}

// validRef checks a revision given to rev-parse or merge-base: "HEAD", a
// full object ID, or a ref name ("refs/remotes/origin/x", "origin/x", "x")
// under the branch rules that cannot be mistaken for an abbreviated ID.
func validRef(ref string) error {
	if ref == "HEAD" || objectIDRE.MatchString(ref) {
		return nil
	}
	if err := named("ref", ref, gitname.Ref(ref, gitname.MaxRefLen)); err != nil {
		return err
	}
	if shortIDRE.MatchString(ref) {
		return invalid("ref", ref, "looks like an abbreviated object ID; give all 40 hex digits")
	}
	return nil
}

// ValidRepoPath checks a path inside a repository (see gitname.RepoPath).
func ValidRepoPath(p string) error { return named("path", p, gitname.RepoPath(p)) }

// ValidURL checks a remote URL given to clone: printable ASCII without
// spaces, not starting with '-', no remote-helper syntax ("ext::...",
// "fd::..."), and no host or path part starting with '-' (the
// ssh://-oProxyCommand class of injection).
func ValidURL(u string) error {
	switch {
	case u == "":
		return invalid("URL", u, "empty")
	case len(u) > maxURLLen:
		return invalid("URL", u, "longer than %d bytes", maxURLLen)
	case strings.HasPrefix(u, "-"):
		return invalid("URL", u, "starts with '-'")
	case strings.Contains(u, "::"):
		return invalid("URL", u, "remote-helper syntax '<transport>::' is not allowed")
	}
	for _, r := range u {
		if r <= ' ' || r >= 0x7f {
			return invalid("URL", u, "contains a space, control or non-ASCII character")
		}
	}
	rest := u
	if i := strings.Index(u, "://"); i >= 0 {
		scheme := u[:i]
		switch scheme {
		case "https", "http", "ssh", "git", "file":
		default:
			return invalid("URL", u, "scheme %q is not allowed", scheme)
		}
		rest = u[i+3:]
		if at := strings.LastIndex(strings.SplitN(rest, "/", 2)[0], "@"); at >= 0 {
			rest = rest[at+1:]
		}
	} else if i := strings.Index(u, ":"); i >= 0 && !strings.Contains(u[:i], "/") {
		// scp-like user@host:path
		host := u[:i]
		if at := strings.LastIndex(host, "@"); at >= 0 {
			host = host[at+1:]
		}
		if strings.HasPrefix(host, "-") || strings.HasPrefix(u[i+1:], "-") {
			return invalid("URL", u, "host or path starts with '-'")
		}
		rest = host
	}
	if strings.HasPrefix(rest, "-") {
		return invalid("URL", u, "host starts with '-'")
	}
	return nil
}

// validTrailer checks a commit trailer: a token key and a one-line value.
func validTrailer(t Trailer) error {
	if !trailerKeyRE.MatchString(t.Key) {
		return invalid("trailer key", t.Key, "must match %s", trailerKeyRE)
	}
	if t.Value == "" || strings.TrimSpace(t.Value) != t.Value {
		return invalid("trailer value", t.Value, "empty or surrounded by whitespace")
	}
	if !printableLine(t.Value) {
		return invalid("trailer value", t.Value, "not one line of printable UTF-8")
	}
	return nil
}

func printableLine(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}
