package config

import (
	"errors"
	"fmt"
	neturl "net/url"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"rfhandoff/gitcli/gitname"
)

// Names that end up in git argv are checked against gitname's rules, the
// ones gitcli enforces; fieldError names the key and the value.

func checkBranch(name string) error { return reason(gitname.Branch(name)) }

func checkRemote(name string) error { return reason(gitname.Remote(name)) }

// checkRemoteURL: a password is refused, as config check prints the policy
// and it is copied between machines.
func checkRemoteURL(u string) error {
	if err := reason(gitname.URL(u)); err != nil {
		return err
	}
	if parsed, err := neturl.Parse(u); err == nil && parsed.User != nil {
		if _, ok := parsed.User.Password(); ok {
			return fmt.Errorf("must not hold a password (name a credential helper in [tools] git_credential_helper instead)")
		}
	}
	if !strings.Contains(u, "://") {
		return checkDriveRelative(u)
	}
	return nil
}

// checkRepoPath names control characters as such first, as for every other text value.
func checkRepoPath(p string) error {
	if err := checkText(p); err != nil {
		return err
	}
	return reason(gitname.RepoPath(p))
}

func reason(r string) error {
	if r == "" {
		return nil
	}
	return errors.New(r)
}

// checkLocalPath: a relative path is resolved against repo.path and must stay inside it.
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
	if err := checkDriveRelative(p); err != nil {
		return err
	}
	if strings.HasPrefix(p, "-") {
		return fmt.Errorf("must not start with '-'")
	}
	if slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..") {
		return fmt.Errorf(`must not contain ".." (a relative path stays inside repo.path; use an absolute path instead)`)
	}
	return nil
}

// checkText refuses invalid UTF-8, control and format characters (bidi
// overrides), which could hide text in a terminal or a log line.
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

// checkDriveRelative refuses a Windows path such as C:lab, relative to
// drive C:'s current directory (PROTOCOL#policy-keys).
func checkDriveRelative(p string) error {
	if v := filepath.VolumeName(p); v != "" && !filepath.IsAbs(p) {
		return fmt.Errorf("is relative to the current directory of drive %s, which differs between processes; write an absolute path (%s%c...)", v, v, filepath.Separator)
	}
	return nil
}
