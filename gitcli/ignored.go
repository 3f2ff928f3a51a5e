package gitcli

import (
	"path/filepath"
	"sync"
)

// IgnoredDirs is what one process has already confirmed git ignores, so
// that the packages a command calls do not ask git again.
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
