package gitcli

import (
	"fmt"
	"path/filepath"
	"strings"

	"rfhandoff/exec"
)

// AbsoluteURL is a checkout's remote URL made usable from another
// directory (publish's temporary clone, the mirror). A remote given as a
// local path becomes an absolute file:// URL: relative to the checkout,
// not to the other directory, and a real transport so that --depth 1 and
// --filter apply (git ignores both for plain local paths).
func AbsoluteURL(raw, checkoutDir string) (string, error) {
	if strings.Contains(raw, "://") || exec.ProtocolOf(raw) != "file" {
		return raw, nil
	}
	p := raw
	if !filepath.IsAbs(p) {
		p = filepath.Join(checkoutDir, p)
	}
	p, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("remote path %s: %w", raw, err)
	}
	return "file://" + filepath.ToSlash(p), nil
}
