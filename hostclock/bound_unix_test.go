//go:build !windows

package hostclock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/exec"
	"rfhandoff/internal/clocktest"
	"rfhandoff/internal/gittest"
)

// chronyStack is a capture runner whose PATH holds, besides the tools',
// a chronyc stand-in reporting c (none with c nil), with extra variables
// in the parent environment.
func chronyStack(t *testing.T, c *clocktest.Chrony, extra ...string) (*exec.Stack, string) {
	t.Helper()
	dir := t.TempDir()
	if c != nil {
		clocktest.Write(t, dir, *c)
	}
	env := append([]string{"PATH=" + dir}, extra...)
	// git pinned: the stand-in's PATH may hold nothing else.
	paths, _ := exec.ResolveTools(nil, os.Environ())
	return gittest.Stack(t, exec.Options{Role: exec.RoleCapture, Environ: env, Tools: map[exec.Tool]string{exec.Git: paths[exec.Git]}})
}

// Through the audited runner: the stand-in's offset, delay and dispersion
// come back as chrony's bound, or the refusal says why there is none.
func TestBoundWithStandIn(t *testing.T) {
	ctx := context.Background()
	delay, disp := 3*time.Millisecond, 400*time.Microsecond
	for _, c := range []struct {
		name   string
		chrony *clocktest.Chrony
		env    []string
		limit  time.Duration
		want   Sync
		offset time.Duration
		err    string // what the refusal says, "" for none
	}{
		{"ahead 120 ms", &clocktest.Chrony{Offset: 120 * time.Millisecond, RootDelay: delay, RootDispersion: disp}, nil, time.Second,
			Synced, 120 * time.Millisecond, ""},
		{"behind 250 ms, above the limit", &clocktest.Chrony{Offset: -250 * time.Millisecond, RootDelay: delay, RootDispersion: disp}, nil, 100 * time.Millisecond,
			Synced, -250 * time.Millisecond, "may be 251.9ms from UTC"},
		{"the simulator's offset overrides", &clocktest.Chrony{Offset: time.Second, RootDelay: delay, RootDispersion: disp}, []string{clocktest.OffsetEnv + "=-1500000001"}, 2 * time.Second,
			Synced, -1500000001, ""},
		{"offset within a microsecond", &clocktest.Chrony{Offset: -999, RootDelay: delay, RootDispersion: disp}, nil, time.Second,
			Synced, -999, ""},
		{"not synchronised", &clocktest.Chrony{Unsynchronised: true}, nil, time.Hour, NotSynced, 0, "chronyc waitsync"},
		{"no chronyd", &clocktest.Chrony{DaemonDown: true}, nil, time.Hour, Unknown, 0, "506 Cannot talk to daemon"},
		{"no chronyc", nil, nil, time.Hour, Unknown, 0, "chronyc is not installed"},
		{"a bad offset variable", &clocktest.Chrony{RootDelay: delay}, []string{clocktest.OffsetEnv + "=12ms"}, time.Hour, Unknown, 0, "12ms is not a whole number of nanoseconds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, auditPath := chronyStack(t, c.chrony, c.env...)
			b, err := RequireBound(ctx, s, c.limit, "sync.max_host_clock_error_s", "arming the capture")
			if b.Sync != c.want || b.Offset != c.offset {
				t.Fatalf("%v (offset %v), want %v with offset %v", b, b.Offset, c.want, c.offset)
			}
			if c.want == Synced && b.Bound != c.offset.Abs()+disp+delay/2 {
				t.Fatalf("bound %v, want |%v| + %v + %v/2", b.Bound, c.offset, disp, delay)
			}
			if (err != nil) != (c.err != "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error %v, want one saying %q", err, c.err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "arming the capture refused: ") {
				t.Fatalf("the refusal does not name what it refuses: %v", err)
			}
			log, rerr := os.ReadFile(auditPath)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if c.chrony != nil && (!strings.Contains(string(log), `"tool":"chronyc"`) || !strings.Contains(string(log), `/chronyc","-c","tracking"],"decision":"allowed"`)) {
				t.Fatalf("audit log lacks the query:\n%s", log)
			}
		})
	}
}

// The stand-in answers nothing but the one query, and a runner of a role
// that may not ask chrony starts nothing: both fail, neither passes.
func TestBoundQueryIsTheOnlyOne(t *testing.T) {
	dir := t.TempDir()
	path := clocktest.Write(t, dir, clocktest.Chrony{})
	paths, _ := exec.ResolveTools(nil, os.Environ())
	s, _ := gittest.Stack(t, exec.Options{Role: exec.RoleGit, Environ: []string{"PATH=" + filepath.Dir(path)}, Tools: map[exec.Tool]string{exec.Git: paths[exec.Git]}})
	_, err := Bound(context.Background(), s)
	if err == nil || !errors.Is(err, exec.ErrDenied) && !strings.Contains(err.Error(), "not allowed") {
		t.Fatalf("a git-role runner asked chrony: %v", err)
	}
	cs, _ := chronyStack(t, &clocktest.Chrony{})
	res, err := cs.Run(context.Background(), exec.Cmd{Tool: exec.Chronyc, Args: []string{"-c", "tracking"}})
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(res.Stdout)), ",Normal") {
		t.Fatalf("the stand-in's query: %q, %v", res.Stdout, err)
	}
	if _, err := cs.Run(context.Background(), exec.Cmd{Tool: exec.Chronyc, Args: []string{"-c", "makestep"}}); !errors.Is(err, exec.ErrDenied) {
		t.Fatalf("chronyc -c makestep was not denied: %v", err)
	}
}
