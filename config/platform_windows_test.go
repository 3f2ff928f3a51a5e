package config

import "path/filepath"

// abs turns a slash-separated absolute test path into one of this system.
func abs(p string) string { return `C:` + filepath.FromSlash(p) }
