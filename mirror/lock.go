package mirror

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"rfhandoff/localfile"
)

// Infixes of the directories rebuild makes beside the mirror; one left by
// a killed rebuild is removed by the next Open.
const (
	tmpInfix = ".tmp-"
	oldInfix = ".old-"
)

const lockRetry = 20 * time.Millisecond

// lock waits for the lock file beside the mirror (<mirror>.lock), which
// every rfhandoff process of the side takes around its own use of the
// mirror: two captures or a capture and a watcher never fetch at once.
// The kernel drops it when its holder dies, SIGKILL included.
func (m *Mirror) lock(ctx context.Context) (func(), error) {
	fl := flock.New(m.Dir+".lock", flock.SetPermissions(0o600))
	ok, err := fl.TryLockContext(ctx, lockRetry)
	if err != nil || !ok {
		return nil, fmt.Errorf("mirror: waiting for %s: %w", fl.Path(), err)
	}
	removeStaleGitFiles(m.Dir)
	return func() { _ = fl.Unlock() }, nil
}

// removeLeftovers removes what a killed rebuild left beside dir.
func removeLeftovers(dir string) {
	for _, infix := range []string{tmpInfix, oldInfix} {
		found, _ := filepath.Glob(dir + infix + "*")
		for _, p := range found {
			_ = os.RemoveAll(p)
		}
	}
}

// cleanTemps removes the temporary files a write of the anchors file or
// of the withheld list left when it was killed mid-write. Only a holder
// of the mirror lock calls it: no write of ours is under way then.
func cleanTemps(dir string) error {
	for _, p := range []string{AnchorsPath(dir), withheld{dir}.path()} {
		if _, err := localfile.CleanTemps(p); err != nil {
			return fmt.Errorf("mirror: removing leftover temporary files of %s: %w", p, err)
		}
	}
	return nil
}

// removeStaleGitFiles removes the lock and temporary files a git killed
// mid-fetch leaves in the mirror (a ref's .lock would fail every later
// fetch); an interrupted index-pack leaves its tmp_pack_* too. Only a
// holder of the mirror lock calls it, when it starts and after a git call
// of its own failed: no git of ours is running in the mirror then, so
// every such file is stale.
func removeStaleGitFiles(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		name := d.Name()
		if strings.HasSuffix(name, ".lock") || strings.HasPrefix(name, "tmp_") ||
			(strings.HasPrefix(name, "pack-") && strings.HasSuffix(name, ".keep")) {
			_ = os.Remove(p)
		}
		return nil
	})
}
