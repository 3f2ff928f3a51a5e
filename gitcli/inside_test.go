package gitcli

import (
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
		rel, inside, itself, err := pathInCheckout(c.repo, c.dir)
		if err != nil {
			t.Errorf("pathInCheckout(%q, %q) error = %v", c.repo, c.dir, err)
			continue
		}
		if filepath.ToSlash(rel) != c.rel || inside != c.inside || itself != c.itself {
			t.Errorf("pathInCheckout(%q, %q) = %q, %v, %v; want %q, %v, %v", c.repo, c.dir, rel, inside, itself, c.rel, c.inside, c.itself)
		}
	}
}
