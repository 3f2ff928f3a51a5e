package config

import "path/filepath"

// Resolve makes a local path from the policy absolute-or-repo-relative:
// an absolute path is returned as it is, a relative one is joined to
// repo.path (which itself may be relative to the working directory).
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
