//go:build unix

package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/txtest"
)

// harmless writes a program that exits 0 at once, under name.
func harmless(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	gittest.WriteScript(t, p, "#!/bin/sh\nexit 0\n")
	return p
}

// watcherApp is an App on a real checkout of a file remote, with
// notify.command set and every HackRF tool pinned to a program that would
// run and succeed: a HackRF tool refused below is refused by the
// allowlist, not for being missing.
func watcherApp(t *testing.T) *App {
	t.Helper()
	f := txtest.New(t)
	bin := t.TempDir()
	pol := f.Policy()
	pol.Tools.HackRFInfo = harmless(t, bin, "hackrf_info")
	pol.Tools.HackRFTransfer = harmless(t, bin, "hackrf_transfer")
	pol.Tools.HackRFClock = harmless(t, bin, "hackrf_clock")
	pol.Notify.Command = []string{harmless(t, bin, "lab-notifier"), "{event}"}
	return &App{
		Ctx: t.Context(), Stdout: io.Discard, Stderr: io.Discard,
		Policy: pol, Logger: slog.New(slog.DiscardHandler), Environ: gittest.Environ(f.Home),
		runners: map[exec.Role]*exec.Stack{},
	}
}

// hackRFCalls are a receive, a transmit and the two queries, each as
// its own role would be allowed to give it.
var hackRFCalls = []exec.Cmd{
	{Tool: exec.HackRFTransfer, Args: []string{"-r", "/tmp/rfhandoff-roles.cs8", "-f", "433920000", "-s", "2000000", "-n", "2000000"}},
	{Tool: exec.HackRFTransfer, Args: []string{"-t", "/tmp/rfhandoff-roles.iq", "-f", "433920000", "-s", "2000000", "-x", "0", "-n", "2000000"}},
	{Tool: exec.HackRFInfo},
	{Tool: exec.HackRFClock, Args: []string{"-i"}},
}

// No runner that tx watch or rx watch builds can start hackrf_transfer
// (PROTOCOL#subprocesses): each is built through the function the command runs,
// and every runner the App then holds, the notifier's included, refuses
// it to receive and to transmit. The queries hackrf_info and hackrf_clock
// -i are refused too, but for rx watch's recovery runner (exec.RoleProbe:
// a rebuilt COMPLETE reads clkin_after). Each still starts what its role
// is for (git, the notification program), so the refusals are the
// allowlist's, not a runner that starts nothing.
func TestWatchersCannotStartHackRF(t *testing.T) {
	for _, c := range []struct {
		command string
		build   func(app *App) ([]exec.Runner, error)
	}{
		{"tx watch", func(app *App) ([]exec.Runner, error) {
			w, err := (&TxWatchCmd{}).watcher(app)
			if err != nil {
				return nil, err
			}
			return []exec.Runner{w.Git.R}, nil
		}},
		{"rx watch", func(app *App) ([]exec.Runner, error) {
			env, err := rxEnv(app, "rx watch")
			if err != nil {
				return nil, err
			}
			pub, err := rxWatchPublisher(app)
			if err != nil {
				return nil, err
			}
			return []exec.Runner{env.Git.R, pub.Runner, pub.Git.R}, nil
		}},
	} {
		t.Run(c.command, func(t *testing.T) {
			app := watcherApp(t)
			used, err := c.build(app)
			if err != nil {
				t.Fatal(err)
			}
			held := map[exec.Runner]exec.Role{}
			for role, s := range app.runners {
				held[s] = role
			}
			for _, r := range used {
				if _, ok := held[r]; !ok {
					t.Fatalf("%s uses a runner %T the App did not build", c.command, r)
				}
			}
			want := 2
			if c.command == "rx watch" {
				want = 3 // and its recovery's probe
			}
			if len(held) != want || app.runners[exec.RoleGit] == nil || app.runners[exec.RoleNotify] == nil {
				t.Errorf("%s holds runners of roles %v; want its own (git), the notifier's and, for rx watch, the recovery's probe", c.command, held)
			}
			ctx := context.Background()
			for s, role := range held {
				for _, cmd := range hackRFCalls {
					_, err := s.Run(ctx, cmd)
					if role == exec.RoleProbe && cmd.Tool != exec.HackRFTransfer {
						if errors.Is(err, exec.ErrDenied) {
							t.Errorf("%s, runner %s: %s %v refused; the recovery asks it", c.command, role, cmd.Tool, cmd.Args)
						}
						continue
					}
					if !errors.Is(err, exec.ErrDenied) {
						t.Errorf("%s, runner %s: %s %v: got %v, want refused by the allowlist", c.command, role, cmd.Tool, cmd.Args, err)
					}
				}
			}
			if t.Failed() {
				return
			}
			if _, err := app.runners[exec.RoleGit].Run(ctx, exec.Cmd{Tool: exec.Git, Args: []string{"version"}}); err != nil {
				t.Errorf("%s: its runner cannot run git: %v", c.command, err)
			}
			if _, err := app.runners[exec.RoleNotify].Run(ctx, exec.Cmd{Tool: exec.Notify, Args: []string{"x"}}); err != nil {
				t.Errorf("%s: the notifier's runner cannot run the notification program: %v", c.command, err)
			}
			if _, err := app.runners[exec.RoleNotify].Run(ctx, exec.Cmd{Tool: exec.Git, Args: []string{"version"}}); !errors.Is(err, exec.ErrDenied) {
				t.Errorf("%s: the notifier's runner ran git: %v", c.command, err)
			}
		})
	}
}
