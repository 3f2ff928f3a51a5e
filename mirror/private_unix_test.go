//go:build unix

package mirror_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rfhandoff/config"
	"rfhandoff/internal/gittest"
	"rfhandoff/mirror"
)

// A mirror another account could change is refused when opened (issue
// 29; PROTOCOL#rx-state): every git call there reads its config and its
// objects. The mirror, or its config, writable by others, or owned by
// another account, is named with what is wrong and the fix, and nothing
// runs in it; once fixed, the same mirror opens and serves the branch.
func TestMirrorOpenRefusesAMirrorOthersMayChange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		path  func(dir string) string
		spoil func(t *testing.T, p string)
		fix   func(t *testing.T, p string)
		want  []string
	}{
		{"the mirror writable by others", func(d string) string { return d },
			func(t *testing.T, p string) { chmod(t, p, 0o757) }, func(t *testing.T, p string) { chmod(t, p, 0o755) },
			[]string{"writable by", "(mode 0757)", "`chmod go-w "}},
		{"its config writable by others", func(d string) string { return filepath.Join(d, "config") },
			func(t *testing.T, p string) { chmod(t, p, 0o646) }, func(t *testing.T, p string) { chmod(t, p, 0o644) },
			[]string{"writable by", "(mode 0646)", "`chmod go-w "}},
		{"its config owned by another account", func(d string) string { return filepath.Join(d, "config") },
			func(t *testing.T, p string) {
				if os.Geteuid() != 0 {
					t.Skip("changing a file's owner needs root")
				}
				if err := os.Lchown(p, 65534, -1); err != nil {
					t.Fatal(err)
				}
			}, func(t *testing.T, p string) {
				if err := os.Lchown(p, os.Geteuid(), -1); err != nil {
					t.Fatal(err)
				}
			},
			[]string{"owned by", "not by you", "`chown "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			tip := gittest.Seed(t, f.rem, branch, map[string]string{taskPath: "TASK_ID = T1\n"})
			f.fetch(t, f.open(t))
			p := c.path(f.dir)
			c.spoil(t, p)
			cfg, _ := os.ReadFile(filepath.Join(f.dir, "config"))
			_, err := mirror.Open(t.Context(), f.checkout, config.Repo{Remote: "origin"}, f.dir, slog.New(slog.NewTextHandler(f.logs, nil)))
			if err == nil {
				t.Fatalf("Open of a mirror whose %s: no error", c.name)
			}
			for _, w := range append(c.want, p) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the refusal does not name %q: %v", w, err)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(f.dir, "config")); string(after) != string(cfg) {
				t.Errorf("the refused mirror's config was rewritten:\n%s\nwas\n%s", after, cfg)
			}
			c.fix(t, p)
			if got := f.fetch(t, f.open(t)); got != tip {
				t.Fatalf("the fixed mirror serves %s, want %s", got, tip)
			}
		})
	}
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}
