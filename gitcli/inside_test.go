package gitcli

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestPathInCheckout(t *testing.T) {
	cases := []struct {
		repo, dir, rel string
		inside, itself bool
	}{
		{"/srv/rx", "/srv/rx/.local", ".local", true, false},
		{"/srv/rx", "/srv/rx/.local/captures/X", ".local/captures/X", true, false},
		{"/srv/rx", "/var/lib/rfhandoff", "", false, false},
		{"/srv/rx", "/srv/rx-other/.local", "", false, false},
		{"/srv/rx", "/srv/rx/../rx2", "", false, false},
		{"/srv/rx", "/srv/rx", "", false, true},
		{"/srv/rx/", "/srv/rx/./", "", false, true},
	}
	for _, c := range cases {
		rel, inside, err := PathInCheckout(c.repo, c.dir, "state directory")
		var ce *CheckoutItselfError
		if c.itself != errors.As(err, &ce) || (!c.itself && err != nil) {
			t.Errorf("PathInCheckout(%q, %q) error = %v", c.repo, c.dir, err)
			continue
		}
		if filepath.ToSlash(rel) != c.rel || inside != c.inside {
			t.Errorf("PathInCheckout(%q, %q) = %q, %v; want %q, %v", c.repo, c.dir, rel, inside, c.rel, c.inside)
		}
	}
}
