package rxside

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"rfhandoff/config"
	"rfhandoff/errlist"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/localfile"
	"rfhandoff/mirror"
	"rfhandoff/notify"
	"rfhandoff/state"
	"rfhandoff/task"
)

type Env struct {
	Git    *gitcli.Client
	Policy config.Policy
	Log    *slog.Logger
	Now    func() time.Time // default time.Now
	// Command names the one-shot command ("rx check", "rx approve") in the
	// RX lock, so that a command refused beside it can say what holds it.
	Command string
	Notify  *notify.Dispatcher // PROTOCOL#notifications; nil sends nothing
	Audit   *exec.AuditLog     // the prompt's decision lines (PROTOCOL#audit-log); nil records none
}

// decide writes one decision line about task t (PROTOCOL#audit-log).
func (e Env) decide(kind string, t *task.Task, commit, reason string) error {
	if e.Audit == nil {
		return nil
	}
	d := exec.Decision{Side: exec.SideRX, Kind: kind, Command: e.Command, Reason: reason, TaskCommit: commit}
	if t != nil {
		d.TaskID, d.Level, d.TaskSHA256 = t.ID, t.EffectiveLevel.String(), t.SHA256
	}
	if err := e.Audit.RecordDecision(d); err != nil {
		return fmt.Errorf("cannot record the decision (%s) in the audit log: %w", kind, err)
	}
	return nil
}

func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e Env) log() *slog.Logger {
	if e.Log != nil {
		return e.Log
	}
	return slog.New(slog.DiscardHandler)
}

// Role is what a session holds the watcher lock for.
type Role int

const (
	RoleOneShot Role = iota + 1 // rx check, rx approve: the lock, running left alone
	RoleWatcher                 // rx watch: running and watcher_pid set while it lives
)

const watcherHolder = "rx watch" // what rx watch records in the RX lock

// lockHeldError is a command refused because another one holds the RX lock, which the
// message names from what it recorded there.
type lockHeldError struct {
	Locked *localfile.LockedError
	Role   Role // the refused command's
}

func (e *lockHeldError) Watcher() bool { return e.Locked.Holder == watcherHolder }

func (e *lockHeldError) Error() string {
	l := e.Locked
	pid := ""
	if l.PID > 0 {
		pid = fmt.Sprintf(" (process %d)", l.PID)
	}
	switch {
	case e.Watcher() && e.Role == RoleWatcher:
		return fmt.Sprintf("an rx watcher%s is already running and holds %s: only one watcher may run at a time", pid, l.Path)
	case e.Watcher():
		return fmt.Sprintf("an rx watcher%s is running and holds %s: it fetches the task branch and prompts itself; "+
			"answer its prompt, or stop it ([S] or Ctrl-C) first", pid, l.Path)
	case l.Holder != "":
		return fmt.Sprintf("%s%s is running and holds %s: rx watch, rx check and rx approve run one at a time; "+
			"let it finish (answer its prompt if it shows one), then try again", l.Holder, pid, l.Path)
	}
	return fmt.Sprintf("another rfhandoff command%s is running and holds %s: rx watch, rx check and rx approve run one at a time; "+
		"let it finish, then try again", pid, l.Path)
}

func (e *lockHeldError) Unwrap() error { return e.Locked }

// Session is an RX command whose state directory exists and is ignored by git, holding the
// watcher lock.
type Session struct {
	Env
	Mirror *mirror.Mirror // the task branch is read there, never in the checkout (its HEAD is source_head)
	Store  *state.RXStore
	role   Role
	lock   *localfile.Lock
}

// Open checks the preconditions, takes the watcher lock, recovers a stale running flag and,
// for RoleWatcher, records running and the PID. A command beside one holding the lock gets a
// *lockHeldError naming the holder; a corrupt state file is left untouched.
func Open(ctx context.Context, env Env, role Role) (*Session, error) {
	dir := env.Policy.StatePath()
	if err := env.Git.MakePrivateDir(ctx, env.Policy.Repo.Path, dir, "state directory"); err != nil {
		return nil, err
	}
	holder := env.Command
	if role == RoleWatcher {
		holder = watcherHolder
	}
	lock, err := localfile.AcquireAs(filepath.Join(dir, state.RXLockFile), holder)
	if err != nil {
		var le *localfile.LockedError
		if errors.As(err, &le) {
			return nil, &lockHeldError{Locked: le, Role: role}
		}
		return nil, err
	}
	s := &Session{Env: env, Store: &state.RXStore{Dir: dir}, role: role, lock: lock}
	// After the lock (a one-shot command beside a watcher changes nothing)
	// and before running is recorded (a watcher that records it polls).
	if s.Mirror, err = mirror.ForRX(ctx, env.Git, env.Policy, env.log()); err != nil {
		lock.Release()
		return nil, err
	}
	if err := s.start(); err != nil {
		lock.Release()
		return nil, err
	}
	return s, nil
}

func (s *Session) start() error {
	if removed, err := s.Store.CleanTemps(); err != nil {
		return err
	} else if len(removed) > 0 {
		s.log().Warn("removed temp files left by a killed writer", "files", removed)
	}
	_, err := s.Store.Update(func(st *state.RX) error {
		// Holding the lock proves whoever set running is gone.
		if s.lock.RecoverStale(st.Running, st.WatcherPID) {
			s.log().Warn("recovered a stale running flag: the previous watcher did not stop cleanly",
				"state", s.Store.Path(), "watcher_pid", st.WatcherPID)
			st.Running, st.WatcherPID = false, 0
		}
		if s.role == RoleWatcher {
			st.Running, st.WatcherPID = true, os.Getpid()
		}
		return nil
	})
	return err
}

func (s *Session) Close() error {
	var err error
	if s.role == RoleWatcher {
		_, err = s.Store.Update(func(st *state.RX) error {
			st.Running, st.WatcherPID = false, 0
			return nil
		})
	}
	return errlist.Join(err, s.lock.Release())
}

func (s *Session) StateDir() string { return s.Store.Dir }
