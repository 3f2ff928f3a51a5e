package mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/localfile/private"
)

// The mirrors' names in the state directory, one per side.
const (
	RXName = "mirror-rx.git"
	TXName = "mirror-tx.git"
)

// filter is what polls leave out: every blob.
const filter = "blob:none"

// filterIgnoredMark, inside the mirror, records that the server's refusal
// of filters was reported, so that a cron-driven rx check says it once.
const filterIgnoredMark = "rfhandoff-filter-ignored"

// Mirror is git on one side's mirror. It reads like the checkout's
// gitcli.Client (the methods taskfetch and the watchers use) and fetches
// blobless.
type Mirror struct {
	Dir    string // the bare repository
	Remote string // the remote's name, as in the checkout
	URL    string // the checkout remote's URL, made absolute
	git    *gitcli.Client
	log    *slog.Logger
	once   sync.Once
	// vouched: branches whose tracking ref this Mirror has checked
	// against the anchors file since Open or the last rebuild.
	vouched map[string]bool
}

// Open returns the mirror at dir (<state_dir>/RXName or TXName) of the
// policy's remote (RemoteURL), creating or rebuilding it as needed, and
// checks that git fetches from exactly that URL there (no rewrite in the
// global or system config). Commands open their side's through ForRX or
// ForTX.
func Open(ctx context.Context, checkout *gitcli.Client, repo config.Repo, dir string, log *slog.Logger) (*Mirror, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	remote := repo.Remote
	url, err := RemoteURL(ctx, checkout, repo)
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	m := &Mirror{Dir: dir, Remote: remote, URL: url, log: log, vouched: map[string]bool{}}
	m.git = &gitcli.Client{
		R: checkout.R, Dir: dir, Timeout: checkout.Timeout,
		Env:      m.env(dir),
		Promisor: &gitcli.Promisor{Remote: remote, Filter: filter, FilterIgnored: m.filterIgnored, Withheld: withheld{dir}, ChecksObjects: true},
		URL:      url,
		Guard:    m.guard,
	}
	unlock, err := m.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	removeLeftovers(dir)
	if err := cleanTemps(dir); err != nil {
		return nil, err
	}
	if err := checkPrivate(dir); err != nil {
		return nil, err
	}
	if why, ok := m.check(ctx); !ok {
		if err := m.rebuild(ctx, why); err != nil {
			return nil, err
		}
	}
	// Only the global and system config can still redirect git here:
	// the mirror's own is rfhandoff's (guard).
	got, err := m.git.RemoteURL(ctx, remote)
	if err != nil {
		return nil, fmt.Errorf("mirror %s: %w", dir, err)
	}
	if got != url {
		return nil, fmt.Errorf("mirror %s: git would fetch from %s, not %s", dir, exec.RedactURL(got), exec.RedactURL(url))
	}
	return m, nil
}

// RemoteURL is the URL rfhandoff fetches from, pushes to and clones
// (PROTOCOL#subprocesses): the policy's repo.url when it sets one, else the URL the
// checkout's config gives the remote, taken only when git would fetch
// from and push to exactly it there (gitcli.Client.RemoteURL). A local
// path, relative to the checkout, is made an absolute file:// URL
// (gitcli.AbsoluteURL).
func RemoteURL(ctx context.Context, checkout *gitcli.Client, repo config.Repo) (string, error) {
	raw := repo.URL
	if raw == "" {
		var err error
		if raw, err = checkout.RemoteURL(ctx, repo.Remote); err != nil {
			return "", fmt.Errorf("remote %s of the checkout %s: %w; or name the remote's URL in the policy's [repo] url: the checkout's remote config is then never read",
				repo.Remote, checkout.Dir, err)
		}
		// The policy's was checked when it was loaded.
		if err := gitcli.ValidURL(raw); err != nil {
			return "", fmt.Errorf("remote %s of the checkout %s: %w", repo.Remote, checkout.Dir, err)
		}
	}
	return gitcli.AbsoluteURL(raw, checkout.Dir)
}

// checkPrivate refuses a mirror, or its config, that another account could
// change: every git call in the mirror reads that config (PROTOCOL#rx-state).
// A mirror not made yet passes.
func checkPrivate(dir string) error {
	for _, p := range []string{dir, filepath.Join(dir, "config")} {
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err := private.Check(p); err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
	}
	return nil
}

// env is every mirror call's environment. GIT_DIR: git never falls back
// to a repository above the mirror. The remote's URL is given as config
// in the environment, never written into the mirror's config file: an
// https URL may carry a password (the checkout's own config keeps it; a
// copy in the state directory would not be the operator's choice).
func (m *Mirror) env(gitDir string) []string {
	return []string{
		"GIT_DIR=" + gitDir,
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=remote." + m.Remote + ".url",
		"GIT_CONFIG_VALUE_0=" + m.URL,
		// git >= 2.44 then refuses to fetch a missing object by itself, outside the runner.
		"GIT_NO_LAZY_FETCH=1",
	}
}

// urlFile, inside the mirror, records (redacted) which URL the mirror was
// built for. A plain file rfhandoff alone writes, read without starting
// git: every Open asks it (earlier mirrors kept it as the config key
// rfhandoff.mirroredurl, and are rebuilt once, as not saying).
const urlFile = "rfhandoff-mirrored-url"

// maxURLFileBytes bounds the read of urlFile.
const maxURLFileBytes = 64 << 10

// mirroredURL reads urlFile in the mirror at dir; ok is false when there
// is none.
func mirroredURL(dir string) (url string, ok bool, err error) {
	data, err := private.Read(filepath.Join(dir, urlFile), maxURLFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSuffix(string(data), "\n"), true, nil
}

// check reports whether the mirror is usable and, if not, why it must be
// rebuilt ("" when it does not exist yet).
func (m *Mirror) check(ctx context.Context) (why string, ok bool) {
	if _, err := os.Stat(m.Dir); os.IsNotExist(err) {
		return "", false
	}
	got, set, err := mirroredURL(m.Dir)
	switch {
	case err != nil:
		return fmt.Sprintf("it is unreadable (%v)", err), false
	case !set:
		return "it does not say which remote it mirrors", false
	case got != exec.RedactURL(m.URL):
		return fmt.Sprintf("its remote URL is %s, the remote's is now %s (repo.url, or the checkout's remote)", got, exec.RedactURL(m.URL)), false
	}
	if err := m.guard(); err != nil {
		return m.configChange(ctx), false
	}
	broken, err := m.git.BrokenRefs(ctx)
	if err != nil {
		return fmt.Sprintf("it is unreadable (%v)", err), false
	}
	if len(broken) > 0 {
		return fmt.Sprintf("its refs are broken: %s", strings.Join(broken, "; ")), false
	}
	return "", true
}

// rebuild replaces the mirror with an empty one: built in a temporary
// directory, then renamed into place, so a kill never leaves half a
// mirror at Dir. why is logged ("" for a first use).
func (m *Mirror) rebuild(ctx context.Context, why string) error {
	parent := filepath.Dir(m.Dir)
	tmp, err := os.MkdirTemp(parent, filepath.Base(m.Dir)+tmpInfix)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	defer os.RemoveAll(tmp) // gone after the rename; cleans up a failure
	// An empty GIT_TEMPLATE_DIR: no sample hooks, nothing but the repository.
	g := &gitcli.Client{R: m.git.R, Dir: parent, Timeout: m.git.Timeout, Env: append(m.env(tmp), "GIT_TEMPLATE_DIR=")}
	if err := g.InitBare(ctx, tmp); err != nil {
		return fmt.Errorf("mirror: creating %s: %w", m.Dir, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, urlFile), []byte(exec.RedactURL(m.URL)+"\n"), 0o600); err != nil {
		return fmt.Errorf("mirror: creating %s: %w", m.Dir, err)
	}
	// The whole config, as guard expects it byte for byte.
	if err := os.WriteFile(filepath.Join(tmp, "config"), ownConfig(m.Remote), 0o600); err != nil {
		return fmt.Errorf("mirror: creating %s: %w", m.Dir, err)
	}
	if _, err := os.Stat(m.Dir); err == nil {
		old, err := os.MkdirTemp(parent, filepath.Base(m.Dir)+oldInfix)
		if err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		if err := os.Rename(m.Dir, filepath.Join(old, "git")); err != nil {
			return fmt.Errorf("mirror: moving the old mirror aside: %w", err)
		}
		defer os.RemoveAll(old)
	}
	if err := os.Rename(tmp, m.Dir); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	clear(m.vouched) // the anchors file still holds what was accepted
	if why == "" {
		m.log.Debug("created the mirror the watchers read through", "mirror", m.Dir, "remote", exec.RedactURL(m.URL))
	} else {
		m.log.Warn("rebuilt the mirror: "+why, "mirror", m.Dir, "remote", exec.RedactURL(m.URL))
	}
	return nil
}

// ensure rebuilds a mirror that disappeared since Open (deleted by hand)
// or whose config someone else changed.
func (m *Mirror) ensure(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(m.Dir, "HEAD")); err == nil {
		if m.guard() == nil {
			return nil
		}
		return m.rebuild(ctx, m.configChange(ctx))
	}
	if _, err := os.Stat(m.Dir); os.IsNotExist(err) {
		return m.rebuild(ctx, "it was deleted")
	}
	return m.rebuild(ctx, "it has no HEAD")
}

// filterIgnored reports, once per mirror, that the server sends everything.
func (m *Mirror) filterIgnored() {
	m.once.Do(func() {
		mark := filepath.Join(m.Dir, filterIgnoredMark)
		if _, err := os.Stat(mark); err == nil {
			return
		}
		m.log.Warn("the remote does not filter what it sends (uploadpack.allowFilter is off, as in a plain bare repository): "+
			"everything works, but each poll downloads every file pushed to the branch, media included, not only the task or result. "+
			"Nothing needs doing while the branch holds small files; if it carries large ones or the link is slow, "+
			"run `git config uploadpack.allowFilter true` in the bare repository on the server (hosted forges allow filters already). "+
			"Said once for this mirror",
			"remote", exec.RedactURL(m.URL), "mirror", m.Dir, "mirror_bytes", dirBytes(m.Dir))
		_ = os.WriteFile(mark, []byte("reported\n"), 0o600)
	})
}

// dirBytes is the disk use of the files under dir (for the report only).
func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// ForRX opens the RX side's mirror in the policy's state directory.
func ForRX(ctx context.Context, checkout *gitcli.Client, p config.Policy, log *slog.Logger) (*Mirror, error) {
	return Open(ctx, checkout, p.Repo, p.StatePath(RXName), log)
}

// ForTX opens the MAIN side's mirror in the policy's state directory.
func ForTX(ctx context.Context, checkout *gitcli.Client, p config.Policy, log *slog.Logger) (*Mirror, error) {
	return Open(ctx, checkout, p.Repo, p.StatePath(TXName), log)
}
