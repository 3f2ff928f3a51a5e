package gitcli

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Patterns for values that come from data, the one set every caller (the
// policy loader included) checks names with. They are deliberately
// narrower than what git accepts (git check-ref-format allows
// refs/heads/-x): nothing can start with '-' (an option), hold a space, a
// glob, pathspec magic or a revision operator.
var (
	refComponentRE  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	objectIDRE      = regexp.MustCompile(`^[0-9a-f]{40}$`)
	shortIDRE       = regexp.MustCompile(`^[0-9a-f]{4,39}$`)
	pathComponentRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	trailerKeyRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,63}$`)
)

// Length limits. A ref (refs/remotes/<remote>/<branch>) may be longer
// than the branch it names.
const (
	MaxBranchLen = 100
	MaxRemoteLen = 64
	MaxPathLen   = 255
	maxRefLen    = 255
	maxURLLen    = 2048
)

func invalid(arg, value, format string, a ...any) *InvalidArgError {
	return &InvalidArgError{Arg: arg, Value: value, Reason: fmt.Sprintf(format, a...)}
}

// ValidBranch checks a branch name: one or more '/'-separated components,
// each starting with a letter or digit and made of letters, digits, '.',
// '_' and '-', none ending in '.' or ".lock", no "..", at most 100 bytes.
// "HEAD" is refused. Names are always passed as refs/heads/<name>.
func ValidBranch(name string) error { return validRefName("branch", name, MaxBranchLen) }

func validRefName(arg, name string, maxLen int) error {
	switch {
	case name == "":
		return invalid(arg, name, "must not be empty")
	case len(name) > maxLen:
		return invalid(arg, name, "longer than %d characters", maxLen)
	case strings.HasPrefix(name, "-"):
		return invalid(arg, name, "must not start with '-' (it would read as an option)")
	case strings.Contains(name, ".."):
		return invalid(arg, name, `must not contain ".."`)
	case name == "HEAD":
		return invalid(arg, name, `"HEAD" is not a branch name`)
	}
	for _, c := range strings.Split(name, "/") {
		switch {
		case c == "":
			return invalid(arg, name, "must not have an empty component (leading, trailing or doubled '/')")
		case !refComponentRE.MatchString(c):
			return invalid(arg, name, "component %q must start with a letter or digit and hold only letters, digits, '.', '_' and '-'", c)
		case strings.HasSuffix(c, ".lock"):
			return invalid(arg, name, `component %q must not end in ".lock"`, c)
		case strings.HasSuffix(c, "."):
			return invalid(arg, name, `component %q must not end in "."`, c)
		}
	}
	return nil
}

// ValidRemoteName checks a remote name (e.g. "origin"): a single component
// under the rules of a branch component, at most 64 characters.
func ValidRemoteName(name string) error {
	if err := validRefName("remote", name, MaxRemoteLen); err != nil {
		return err
	}
	if strings.Contains(name, "/") {
		return invalid("remote", name, "must not contain '/'")
	}
	return nil
}

// ValidObjectID checks a full 40-character lowercase hex object ID.
func ValidObjectID(id string) error {
	if !objectIDRE.MatchString(id) {
		return invalid("object ID", id, "must be 40 lowercase hex characters")
	}
	return nil
}

// ValidRef checks a revision given to rev-parse or merge-base: "HEAD", a
// full object ID, or a ref name ("refs/remotes/origin/x", "origin/x", "x")
// under the branch rules that cannot be mistaken for an abbreviated ID.
func ValidRef(ref string) error {
	if ref == "HEAD" || objectIDRE.MatchString(ref) {
		return nil
	}
	if err := validRefName("ref", ref, maxRefLen); err != nil {
		return err
	}
	if shortIDRE.MatchString(ref) {
		return invalid("ref", ref, "looks like an abbreviated object ID; give all 40 hex digits")
	}
	return nil
}

// ValidRepoPath checks a path inside a repository (the task file, the
// result directory): relative, clean, at most 255 bytes, '/'-separated
// components of letters, digits, '.', '_' and '-', no "." or ".."
// component, none starting with '-', none naming ".git" in any case.
// That excludes control characters, spaces, globs, ':' (pathspec magic,
// a revision separator) and anything non-ASCII.
func ValidRepoPath(p string) error {
	switch {
	case p == "":
		return invalid("path", p, "must not be empty")
	case len(p) > MaxPathLen:
		return invalid("path", p, "longer than %d characters", MaxPathLen)
	case strings.HasPrefix(p, "/"):
		return invalid("path", p, "must be relative to the repository root")
	case strings.HasPrefix(p, "-"):
		return invalid("path", p, "must not start with '-'")
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "":
			return invalid("path", p, "must be a clean path: empty component (leading, trailing or doubled '/')")
		case c == "..":
			return invalid("path", p, `must not contain ".."`)
		case c == ".":
			return invalid("path", p, `must be a clean path below the repository root: component "."`)
		case strings.HasPrefix(c, "-"):
			return invalid("path", p, "component %q must not start with '-'", c)
		case strings.EqualFold(c, ".git"):
			return invalid("path", p, `must not point into ".git"`)
		case !pathComponentRE.MatchString(c):
			return invalid("path", p, "component %q may hold only letters, digits, '.', '_' and '-'", c)
		}
	}
	return nil
}

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
