package gitcli

import (
	"fmt"
	"path/filepath"
	"strings"
)

// CheckoutItselfError is a directory that must stay out of commits but is
// the checkout itself.
type CheckoutItselfError struct {
	What string // "state directory", "capture directory"
	Dir  string
}

func (e *CheckoutItselfError) Error() string {
	return fmt.Sprintf("%s %s is the checkout itself", e.What, e.Dir)
}

// PathInCheckout returns dir relative to the checkout repo and whether it
// lies inside it (a directory outside is never seen by git). dir being the
// checkout itself is a *CheckoutItselfError naming what (e.g. "state
// directory"). It only compares paths; nothing is asked of git.
func PathInCheckout(repo, dir, what string) (rel string, inside bool, err error) {
	ra, err := filepath.Abs(repo)
	if err != nil {
		return "", false, err
	}
	da, err := filepath.Abs(dir)
	if err != nil {
		return "", false, err
	}
	rel, err = filepath.Rel(ra, da)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false, nil
	}
	if rel == "." {
		return "", false, &CheckoutItselfError{What: what, Dir: dir}
	}
	return rel, true, nil
}
