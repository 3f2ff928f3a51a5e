package gitname

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A ref (refs/remotes/<remote>/<branch>) may be longer than the branch it names.
const (
	maxBranchLen = 100
	maxRemoteLen = 64
	MaxRefLen    = 255
	maxPathLen   = 255
)

var (
	refComponentRE  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	pathComponentRE = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
)

// Branch checks a branch name: '/'-separated components of letters,
// digits, '.', '_' and '-', at most 100 characters.
func Branch(name string) string { return Ref(name, maxBranchLen) }

// Remote checks a remote name: one component under the branch rules.
func Remote(name string) string {
	if r := Ref(name, maxRemoteLen); r != "" {
		return r
	}
	if strings.Contains(name, "/") {
		return "must not contain '/'"
	}
	return ""
}

func Ref(name string, maxLen int) string {
	switch {
	case name == "":
		return "must not be empty"
	case len(name) > maxLen:
		return fmt.Sprintf("longer than %d characters", maxLen)
	case strings.HasPrefix(name, "-"):
		return "must not start with '-' (it would read as an option)"
	case strings.Contains(name, ".."):
		return `must not contain ".."`
	case name == "HEAD":
		return `"HEAD" is not a branch name`
	}
	for _, c := range strings.Split(name, "/") {
		switch {
		case c == "":
			return "must not have an empty component (leading, trailing or doubled '/')"
		case !refComponentRE.MatchString(c):
			return fmt.Sprintf("component %q must start with a letter or digit and hold only letters, digits, '.', '_' and '-'", c)
		case strings.HasSuffix(c, ".lock"):
			return fmt.Sprintf(`component %q must not end in ".lock"`, c)
		case strings.HasSuffix(c, "."):
			return fmt.Sprintf(`component %q must not end in "."`, c)
		}
	}
	return ""
}

// RepoPath checks a relative, clean path inside a repository, never into
// .git: no control characters, spaces, globs, ':' (pathspec magic, a
// revision separator) or anything non-ASCII.
func RepoPath(p string) string {
	switch {
	case p == "":
		return "must not be empty"
	case len(p) > maxPathLen:
		return fmt.Sprintf("longer than %d characters", maxPathLen)
	case strings.HasPrefix(p, "/"):
		return "must be relative to the repository root"
	case strings.HasPrefix(p, "-"):
		return "must not start with '-'"
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "":
			return "must be a clean path: empty component (leading, trailing or doubled '/')"
		case c == "..":
			return `must not contain ".."`
		case c == ".":
			return `must be a clean path below the repository root: component "."`
		case strings.HasPrefix(c, "-"):
			return fmt.Sprintf("component %q must not start with '-'", c)
		case strings.EqualFold(c, ".git"):
			return `must not point into ".git"`
		case !pathComponentRE.MatchString(c):
			return fmt.Sprintf("component %q may hold only letters, digits, '.', '_' and '-'", c)
		}
	}
	return ""
}

const maxURLLen = 2048

// URL checks a remote URL: no remote-helper syntax ("ext::..."), a known
// scheme, and no host or path part starting with '-' (the
// ssh://-oProxyCommand class of injection).
func URL(u string) string {
	switch {
	case u == "":
		return "empty"
	case len(u) > maxURLLen:
		return fmt.Sprintf("longer than %d bytes", maxURLLen)
	case strings.HasPrefix(u, "-"):
		return "starts with '-'"
	case strings.Contains(u, "::"):
		return "remote-helper syntax '<transport>::' is not allowed"
	}
	for _, r := range u {
		if r <= ' ' || r >= 0x7f {
			return "contains a space, control or non-ASCII character"
		}
	}
	rest := u
	if i := strings.Index(u, "://"); i >= 0 {
		scheme := u[:i]
		switch scheme {
		case "https", "http", "ssh", "git", "file":
		default:
			return fmt.Sprintf("scheme %q is not allowed", scheme)
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
			return "host or path starts with '-'"
		}
		rest = host
	}
	if strings.HasPrefix(rest, "-") {
		return "host starts with '-'"
	}
	return ""
}

// PrintableLine says whether s is one line of printable UTF-8.
func PrintableLine(s string) bool {
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
