package gitcli

import (
	"fmt"
	"regexp"
	"strings"

	"rfhandoff/gitcli/gitname"
	"rfhandoff/ident"
)

var (
	shortIDRE    = regexp.MustCompile(`^[0-9a-f]{4,39}$`)
	trailerKeyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,63}$`)
)

func invalid(arg, value, format string, a ...any) *invalidArgError {
	return &invalidArgError{Arg: arg, Value: value, Reason: fmt.Sprintf(format, a...)}
}

func named(arg, value, reason string) error {
	if reason == "" {
		return nil
	}
	return &invalidArgError{Arg: arg, Value: value, Reason: reason}
}

func ValidBranch(name string) error { return named("branch", name, gitname.Branch(name)) }

func validRemoteName(name string) error { return named("remote", name, gitname.Remote(name)) }

func ValidObjectID(id string) error {
	if !ident.Commit.MatchString(id) {
		return invalid("object ID", id, "must be 40 lowercase hex characters")
	}
	return nil
}

// validRef checks a revision: "HEAD", a full object ID, or a ref name
// under the branch rules that cannot be mistaken for an abbreviated ID.
func validRef(ref string) error {
	if ref == "HEAD" || ident.Commit.MatchString(ref) {
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

func validFullRef(ref string) error {
	if err := validRef(ref); err != nil || strings.HasPrefix(ref, "refs/") {
		return err
	}
	return invalid("ref", ref, "must be a full name under refs/")
}

func validBranches(remote string, branches []string) error {
	if err := validRemoteName(remote); err != nil {
		return err
	}
	for _, b := range branches {
		if err := ValidBranch(b); err != nil {
			return err
		}
	}
	return nil
}

func ValidRepoPath(p string) error { return named("path", p, gitname.RepoPath(p)) }

func ValidURL(u string) error { return named("URL", u, gitname.URL(u)) }

func validTrailer(t Trailer) error {
	if !trailerKeyRE.MatchString(t.Key) {
		return invalid("trailer key", t.Key, "must match %s", trailerKeyRE)
	}
	if t.Value == "" || strings.TrimSpace(t.Value) != t.Value {
		return invalid("trailer value", t.Value, "empty or surrounded by whitespace")
	}
	if !gitname.PrintableLine(t.Value) {
		return invalid("trailer value", t.Value, "not one line of printable UTF-8")
	}
	return nil
}
