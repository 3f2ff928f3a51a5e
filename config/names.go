package config

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Strict patterns for names that end up in git argv. They are narrower than
// git's own rules on purpose: nothing here can start with '-' (an option),
// hold a space, a glob or a revision operator.
var (
	branchComponent = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	remotePattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	// repoComponent is one component of a path inside the repository.
	repoComponent = regexp.MustCompile(`^[A-Za-z0-9._][A-Za-z0-9._-]*$`)
)

// MaxBranchLen bounds a branch name.
const MaxBranchLen = 100

// CheckBranch reports why name is not an acceptable branch name, or nil:
// components of [A-Za-z0-9._-] starting with a letter or digit, joined by
// single '/', at most 100 characters, no "..", no component ending in "."
// or ".lock", and not "HEAD".
func CheckBranch(name string) error {
	if name == "" {
		return fmt.Errorf("must not be empty")
	}
	if len(name) > MaxBranchLen {
		return fmt.Errorf("longer than %d characters", MaxBranchLen)
	}
	if strings.HasPrefix(name, "-") {
		return fmt.Errorf("must not start with '-' (it would read as an option)")
	}
	if strings.Contains(name, "..") {
		return fmt.Errorf(`must not contain ".."`)
	}
	if name == "HEAD" {
		return fmt.Errorf(`"HEAD" is not a branch name`)
	}
	for _, c := range strings.Split(name, "/") {
		if err := checkRefComponent(c); err != nil {
			return err
		}
	}
	return nil
}

// CheckRemote reports why name is not an acceptable remote name, or nil:
// ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, no "..", not ending in "." or ".lock".
func CheckRemote(name string) error {
	if name == "" {
		return fmt.Errorf("must not be empty")
	}
	if strings.HasPrefix(name, "-") {
		return fmt.Errorf("must not start with '-' (it would read as an option)")
	}
	if !remotePattern.MatchString(name) {
		return fmt.Errorf("must match %s", remotePattern)
	}
	if strings.Contains(name, "..") {
		return fmt.Errorf(`must not contain ".."`)
	}
	return checkRefComponent(name)
}

func checkRefComponent(c string) error {
	switch {
	case c == "":
		return fmt.Errorf("must not have an empty component (leading, trailing or doubled '/')")
	case !branchComponent.MatchString(c):
		return fmt.Errorf("component %q must start with a letter or digit and hold only letters, digits, '.', '_' and '-'", c)
	case strings.HasSuffix(c, ".lock"):
		return fmt.Errorf(`component %q must not end in ".lock"`, c)
	case strings.HasSuffix(c, "."):
		return fmt.Errorf(`component %q must not end in "."`, c)
	}
	return nil
}

// checkRepoPath checks a path inside the repository (task_file, result_dir):
// relative, '/'-separated, clean, no "..", no ".git", no component starting
// with '-', only letters, digits, '.', '_', '-' (no globs, no ':' that git
// would read as pathspec magic or a revision separator).
func checkRepoPath(p string) error {
	if p == "" {
		return fmt.Errorf("must not be empty")
	}
	if err := checkText(p); err != nil {
		return err
	}
	if len(p) > 255 {
		return fmt.Errorf("longer than 255 characters")
	}
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) {
		return fmt.Errorf("must be relative to the repository root")
	}
	if p == "." || path.Clean(p) != p {
		return fmt.Errorf("must be a clean path below the repository root (e.g. %q)", path.Clean(p))
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "..":
			return fmt.Errorf(`must not contain ".."`)
		case strings.EqualFold(c, ".git"):
			return fmt.Errorf(`must not point into ".git"`)
		case strings.HasPrefix(c, "-"):
			return fmt.Errorf("component %q must not start with '-'", c)
		case !repoComponent.MatchString(c):
			return fmt.Errorf("component %q may hold only letters, digits, '.', '_' and '-'", c)
		}
	}
	return nil
}

// checkLocalPath checks a path on this machine (state_dir, audit.path,
// capture.dir, tx.iq_file). Absolute paths are taken as they are; relative
// ones are resolved against repo.path and must stay inside it.
func checkLocalPath(p string) error {
	if p == "" {
		return fmt.Errorf("must not be empty")
	}
	if err := checkText(p); err != nil {
		return err
	}
	// FromSlash: on Windows C:/lab/rx and .local/captures are as clean as
	// their backslashed forms (on Unix it changes nothing).
	if filepath.Clean(p) != filepath.FromSlash(p) {
		return fmt.Errorf("must be a clean path (e.g. %q)", filepath.Clean(p))
	}
	if filepath.IsAbs(p) {
		return nil
	}
	if strings.HasPrefix(p, "-") {
		return fmt.Errorf("must not start with '-'")
	}
	for _, c := range strings.Split(filepath.ToSlash(p), "/") {
		if c == ".." {
			return fmt.Errorf(`must not contain ".." (a relative path stays inside repo.path; use an absolute path instead)`)
		}
	}
	return nil
}

// checkText refuses invalid UTF-8, control characters and invisible format
// characters (bidi overrides), which could otherwise hide in a terminal or
// a log line.
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("is not valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("must not hold control characters")
		}
	}
	return nil
}
