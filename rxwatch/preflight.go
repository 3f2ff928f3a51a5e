package rxwatch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"rfhandoff/config"
	"rfhandoff/gitcli"
)

// NotIgnoredError is a state directory inside the checkout that git does
// not ignore: state, captures and logs could end up in a commit.
type NotIgnoredError struct {
	Dir  string // the state directory
	Repo string // the checkout
	Rel  string // Dir relative to Repo, as given to git check-ignore
}

func (e *NotIgnoredError) Error() string {
	return fmt.Sprintf("state directory %s is not ignored by git in %s: refusing to run "+
		"(state, captures and logs must never enter git); add the line /%s/ to %s or to .gitignore, then try again",
		e.Dir, e.Repo, filepath.ToSlash(e.Rel), filepath.Join(e.Repo, ".git", "info", "exclude"))
}

// Preflight checks what every state-touching RX command needs: the state
// directory exists (created 0700) and, when it lies inside the checkout,
// git ignores it. It returns the state directory.
func Preflight(ctx context.Context, g *gitcli.Client, p config.Policy) (string, error) {
	dir := p.StatePath()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	rel, inside, err := gitcli.PathInCheckout(p.Repo.Path, dir, "state directory")
	if err != nil {
		return "", err
	}
	if !inside {
		return dir, nil // outside the checkout: git never sees it
	}
	// The directory exists now, so a "dir/" pattern matches it too.
	ignored, err := g.CheckIgnored(ctx, filepath.ToSlash(rel))
	if err != nil {
		return "", fmt.Errorf("checking that %s is ignored by git: %w", dir, err)
	}
	if !ignored {
		return "", &NotIgnoredError{Dir: dir, Repo: p.Repo.Path, Rel: rel}
	}
	return dir, nil
}
