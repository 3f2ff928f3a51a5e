package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Resolve makes a local path from the policy absolute: an absolute path is
// returned as it is, a relative one is joined to repo.path, which Load and
// LoadLocated have made absolute (PROTOCOL#policy-keys).
func (p Policy) Resolve(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(p.Repo.Path, path)
}

// StatePath is a path inside the state directory (repo.state_dir resolved
// against repo.path), e.g. StatePath("rx_agent_state.json").
func (p Policy) StatePath(elem ...string) string {
	return filepath.Join(append([]string{p.Resolve(p.Repo.StateDir)}, elem...)...)
}

// AuditPath is the audit log (audit.path resolved against repo.path).
func (p Policy) AuditPath() string { return p.Resolve(p.Audit.Path) }

// CaptureDir is where captures go (capture.dir resolved against repo.path).
func (p Policy) CaptureDir() string { return p.Resolve(p.Capture.Dir) }

// IQFilePath is the file tx hackrf_transfer sends (tx.iq_file resolved
// against repo.path), or "" when none is set.
func (p Policy) IQFilePath() string { return p.Resolve(p.TX.IQFile) }

// withAbsoluteRepo makes repo.path absolute and clean against the working
// directory, once, so that every path derived from it is absolute
// (PROTOCOL#policy-keys): the capture parameters, git's -C and the audit log refuse
// or misread relative ones. A directory inside a git checkout stands for
// the checkout, as it does for git: repo.path becomes the checkout's top
// (WorkTreeTop), so `.local` is the checkout's whatever directory of it
// the command is run from. A repo.path that does not exist, or that lies in
// no checkout, is kept as it is: the commands that need the checkout
// refuse it (InCheckout).
func (p Policy) withAbsoluteRepo() (Policy, error) {
	abs, err := filepath.Abs(p.Repo.Path)
	if err != nil {
		return Policy{}, fmt.Errorf("repo.path = %q: resolving it against the working directory: %w", p.Repo.Path, err)
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		if top := WorkTreeTop(abs); top != "" {
			abs = top
		}
	}
	p.Repo.Path = abs
	return p, nil
}

// InCheckout refuses a repo.path that is not the top of a git checkout
// (withAbsoluteRepo made it the top of the one it lies in), with one
// sentence saying what to do; it runs no git. Every command that reads or
// writes the checkout's local files (the state directory, the audit log)
// calls it before anything else.
func (p Policy) InCheckout() error {
	dir := p.Repo.Path
	st, err := os.Stat(dir)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("repo.path %s does not exist: run rfhandoff inside the git checkout it works in, or set [repo] path in the policy to that checkout; nothing was written", dir)
	case err != nil:
		return fmt.Errorf("repo.path %s: %w; nothing was written", dir, err)
	case !st.IsDir():
		return fmt.Errorf("repo.path %s is not a directory: run rfhandoff inside the git checkout it works in, or set [repo] path in the policy to that checkout; nothing was written", dir)
	}
	if WorkTreeTop(dir) != dir {
		return fmt.Errorf("%s is not inside a git checkout (neither it nor a directory above it holds .git): rfhandoff works in the checkout it is run in; "+
			"cd into the checkout (or set [repo] path in the policy to it) and run the command again; nothing was written", dir)
	}
	return nil
}

// ResolvedPaths lists the local paths the policy names, resolved, for
// config check to show (name, path); unset optional ones are left out.
func (p Policy) ResolvedPaths() [][2]string {
	return slices.DeleteFunc([][2]string{
		{"repo.path", p.Repo.Path},
		{"repo.state_dir", p.StatePath()},
		{"audit.path", p.AuditPath()},
		{"capture.dir", p.CaptureDir()},
		{"tx.iq_file", p.IQFilePath()},
		{"trust.task_signers", p.TaskSignersPath()},
		{"trust.result_signers", p.ResultSignersPath()},
		{"trust.signing_key", p.SigningKeyPath()},
		{"notify.ntfy_token_file", p.ntfyTokenPath()},
		{"notify.webhook_secret_file", p.WebhookSecretPath()},
	}, func(kv [2]string) bool { return kv[1] == "" })
}

// PrivateDir is a directory rfhandoff writes that git must ignore, with
// what it is for messages.
type PrivateDir struct{ What, Dir string }

// LocalDirs are the directories every command checks git ignores before
// it writes there (PROTOCOL#rx-state): the state directory and the audit log's,
// said once when they are one.
func (p Policy) LocalDirs() []PrivateDir {
	dirs := []PrivateDir{{"state directory", p.StatePath()}}
	if d := filepath.Dir(p.AuditPath()); d != p.StatePath() {
		dirs = append(dirs, PrivateDir{"audit log directory", d})
	}
	return dirs
}

// TrustedPaths are the local paths rfhandoff trusts besides the policy
// file itself, each resolved: the state directory, the audit log, and the
// files [trust], [[nodes]] and [notify] name (unset ones left out). Only
// this account may change them, and git must track nothing there
// (PROTOCOL#rx-state, PROTOCOL#local-files).
func (p Policy) TrustedPaths() []string {
	var named []string
	for _, k := range p.trustKeys() {
		named = append(named, p.Resolve(k.v))
	}
	named = append(named, p.ntfyTokenPath(), p.WebhookSecretPath())
	return append([]string{p.StatePath(), p.AuditPath()}, slices.DeleteFunc(named, func(f string) bool { return f == "" })...)
}

// Shown is path as the operator in the working directory would type it:
// relative when it lies below that directory, else as it is. Paths are
// absolute inside rfhandoff; messages that echo a file the operator named
// read better short.
func Shown(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}
