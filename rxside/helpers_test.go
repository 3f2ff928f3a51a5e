package rxside

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/mirror"
)

// testEnv is an Env on the fixture's checkout with its own audited runner
// (so a test can count subprocesses) and a captured log.
func testEnv(t testing.TB, rx *rxtest.RX) (Env, *exec.Stack, *gittest.SyncBuffer) {
	t.Helper()
	r := gittest.RunnerWithHome(t, rx.Home)
	logs := &gittest.SyncBuffer{}
	env := Env{
		Git:    rx.Client(r),
		Policy: rx.Policy,
		Log:    slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	return env, r, logs
}

// testMirror opens the RX mirror in the fixture's state directory, as
// Open does for a session.
func testMirror(t testing.TB, env Env) *mirror.Mirror {
	t.Helper()
	if err := os.MkdirAll(env.Policy.StatePath(), 0o700); err != nil {
		t.Fatal(err)
	}
	m, err := mirror.ForRX(context.Background(), env.Git, env.Policy, env.Log)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
