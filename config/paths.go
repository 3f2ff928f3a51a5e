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

// Resolve joins a relative local path to repo.path, which Load and
// LoadLocated made absolute (PROTOCOL#policy-keys).
func (p Policy) Resolve(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(p.Repo.Path, path)
}

// StatePath is a path inside the resolved repo.state_dir.
func (p Policy) StatePath(elem ...string) string {
	return filepath.Join(append([]string{p.Resolve(p.Repo.StateDir)}, elem...)...)
}

// The resolved audit.path, capture.dir and tx.iq_file ("" when unset).
func (p Policy) AuditPath() string  { return p.Resolve(p.Audit.Path) }
func (p Policy) CaptureDir() string { return p.Resolve(p.Capture.Dir) }
func (p Policy) IQFilePath() string { return p.Resolve(p.TX.IQFile) }

// withAbsoluteRepo makes repo.path absolute, once: git's -C and the audit
// log refuse or misread relative paths (PROTOCOL#policy-keys). A directory
// inside a checkout stands for its top, as for git; one in no checkout is
// kept, for InCheckout to refuse.
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

// InCheckout refuses a repo.path that is not a checkout's top, without git;
// every command that touches the checkout's local files calls it first.
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

// ResolvedPaths lists (key, resolved path) for config check; unset ones are left out.
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

type PrivateDir struct{ What, Dir string }

// LocalDirs are the directories every command checks git ignores before
// it writes there (PROTOCOL#rx-state): the state and audit log directories.
func (p Policy) LocalDirs() []PrivateDir {
	dirs := []PrivateDir{{"state directory", p.StatePath()}}
	if d := filepath.Dir(p.AuditPath()); d != p.StatePath() {
		dirs = append(dirs, PrivateDir{"audit log directory", d})
	}
	return dirs
}

// TrustedPaths are the resolved local paths rfhandoff trusts besides the
// policy file: only this account may change them, and git must track
// nothing there (PROTOCOL#rx-state, PROTOCOL#local-files).
func (p Policy) TrustedPaths() []string {
	var named []string
	for _, k := range p.trustKeys() {
		named = append(named, p.Resolve(k.v))
	}
	named = append(named, p.ntfyTokenPath(), p.WebhookSecretPath())
	return append([]string{p.StatePath(), p.AuditPath()}, slices.DeleteFunc(named, func(f string) bool { return f == "" })...)
}

// Shown is path relative to the working directory when it lies below it.
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
