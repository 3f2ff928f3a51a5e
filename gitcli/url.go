package gitcli

import (
	"fmt"
	"path/filepath"
	"strings"

	"rfhandoff/exec"
)

// AbsoluteURL is a checkout's remote URL made usable from another
// directory. A local path becomes an absolute file:// URL, a real
// transport, so that --depth 1 and --filter apply.
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
	// A drive path is written file://C:/lab/rf.git, the form Git for
	// Windows parses as a drive path: file:///C:/lab/rf.git would hand
	// git-upload-pack "/C:/lab/rf.git". Everything else is rooted (a UNC
	// path keeps its two leading slashes: file:////server/share/rf.git).
	u := filepath.ToSlash(p)
	if drive := len(filepath.VolumeName(p)) == 2; !drive && !strings.HasPrefix(u, "/") {
		u = "/" + u
	}
	return "file://" + u, nil
}
