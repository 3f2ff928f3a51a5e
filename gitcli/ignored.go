package gitcli

import (
	"path/filepath"
	"sync"
)

// IgnoredDirs is what one process has already confirmed git ignores: a
// command checks its state directory before it writes anything, and the
// packages it then calls would ask git again about the same directory.
// A command runs for one task, so an answer holds for its lifetime; a
// watcher checks once when it starts, as it did before.
type IgnoredDirs struct {
	mu   sync.Mutex
	dirs map[[2]string]bool
}

func (s *IgnoredDirs) has(repo, dir string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dirs[[2]string{filepath.Clean(repo), filepath.Clean(dir)}]
}

func (s *IgnoredDirs) add(repo, dir string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dirs == nil {
		s.dirs = map[[2]string]bool{}
	}
	s.dirs[[2]string{filepath.Clean(repo), filepath.Clean(dir)}] = true
}
