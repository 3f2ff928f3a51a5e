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
	// A path rooted without a drive ("/srv/git/rf.git" on Windows) is on
	// the current drive, not under the checkout.
	if !filepath.IsAbs(p) && !strings.HasPrefix(filepath.ToSlash(p), "/") {
		p = filepath.Join(checkoutDir, p)
	}
	p, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("remote path %s: %w", raw, err)
	}
	// file:// is followed by an empty host and an absolute path: a drive
	// letter needs a slash before it (file:///C:/lab/rf.git), or git would
	// read "C:" as the host.
	u := filepath.ToSlash(p)
	if !strings.HasPrefix(u, "/") {
		u = "/" + u
	}
	return "file://" + u, nil
}
