package faultkit

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// accountWait bounds each process an Account runs and the wait for the
// system's account database lock.
const accountWait = 60 * time.Second

// accounts serialises this process's changes to the account database
// (other processes' are waited for: see admin).
var accounts sync.Mutex

// NewAccount creates a throwaway account with a group of its own and a
// private home directory, removed (userdel) when the test ends. It skips
// the test, saying why, unless the test runs as root on Linux with
// useradd and userdel installed.
func NewAccount(t testing.TB) *Account {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("faultkit: a second OS account needs root (useradd, and starting a process as another account); run the suite as root to include these tests")
	}
	for _, tool := range []string{"/usr/sbin/useradd", "/usr/sbin/userdel"} {
		if _, err := os.Stat(tool); err != nil {
			t.Skipf("faultkit: %s is missing, so no second OS account can be made: %v", tool, err)
		}
	}
	home := filepath.Join(t.TempDir(), "agent-home")
	name := fmt.Sprintf("rfhagent%d%04d", os.Getpid()%100000, rand.IntN(10000))
	admin(t, "/usr/sbin/useradd", "--system", "--user-group", "--no-create-home", "--home-dir", home, "--shell", "/usr/sbin/nologin", name)
	t.Cleanup(func() {
		admin(t, "/usr/sbin/userdel", name)
		// With USERGROUPS_ENAB userdel removes the group; elsewhere do it.
		if _, err := user.LookupGroup(name); err == nil {
			admin(t, "/usr/sbin/groupdel", name)
		}
	})
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatalf("faultkit: the account %s just made: %v", name, err)
	}
	a := &Account{Name: name, Home: home}
	if a.UID, err = strconv.Atoi(u.Uid); err == nil {
		a.GID, err = strconv.Atoi(u.Gid)
	}
	if err != nil {
		t.Fatalf("faultkit: account %s: %v", name, err)
	}
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, a.UID, a.GID); err != nil {
		t.Fatal(err)
	}
	LetReach(t, home)
	return a
}

// admin runs an account tool (useradd, userdel, groupdel) as this process,
// trying again while another process holds the account database's lock
// (exit 1 or 10 from the shadow tools), and fails the test otherwise.
func admin(t testing.TB, tool string, args ...string) {
	t.Helper()
	accounts.Lock()
	defer accounts.Unlock()
	deadline := time.Now().Add(accountWait)
	for {
		o := run(t, nil, "/", nil, "", accountWait, append([]string{tool}, args...)...)
		switch {
		case o.Code == 0:
			return
		case (o.Code == 1 || o.Code == 10) && time.Now().Before(deadline) && strings.Contains(o.Stderr, "lock"):
			time.Sleep(50 * time.Millisecond) // another process holds /etc/passwd.lock
		default:
			t.Fatalf("faultkit: %s %s: %s", tool, strings.Join(args, " "), o)
		}
	}
}

// Run runs argv (argv[0] an absolute path) as the account in dir, in a
// session of its own with no terminal, env its environment (nil: Env()),
// stdin from stdin, and waits at most a minute for it to end.
func (a *Account) Run(t testing.TB, dir string, env []string, stdin string, argv ...string) Output {
	t.Helper()
	if env == nil {
		env = a.Env()
	}
	cred := &syscall.Credential{Uid: uint32(a.UID), Gid: uint32(a.GID), Groups: []uint32{}}
	return run(t, cred, dir, env, stdin, accountWait, argv...)
}

// run starts argv with os.StartProcess (only package exec may use
// os/exec), as cred when not nil, and waits for it at most timeout,
// killing it then. Outputs go through files: nothing is left to read
// when it ends.
func run(t testing.TB, cred *syscall.Credential, dir string, env []string, stdin string, timeout time.Duration, argv ...string) Output {
	t.Helper()
	tmp := t.TempDir()
	files := make([]*os.File, 3)
	for i, name := range []string{"stdin", "stdout", "stderr"} {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(stdin), 0o600); err != nil {
			t.Fatal(err)
		}
		mode := os.O_RDONLY
		if i > 0 {
			mode = os.O_WRONLY | os.O_TRUNC
		}
		f, err := os.OpenFile(p, mode, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files[i] = f
	}
	proc, err := os.StartProcess(argv[0], argv, &os.ProcAttr{
		Dir: dir, Env: env, Files: files,
		Sys: &syscall.SysProcAttr{Credential: cred, Setsid: true},
	})
	if err != nil {
		t.Fatalf("faultkit: starting %s: %v", strings.Join(argv, " "), err)
	}
	done := make(chan *os.ProcessState, 1)
	go func() {
		st, _ := proc.Wait()
		done <- st
	}()
	var st *os.ProcessState
	select {
	case st = <-done:
	case <-time.After(timeout):
		_ = proc.Kill()
		st = <-done
		t.Errorf("faultkit: %s did not end within %v; killed", strings.Join(argv, " "), timeout)
	}
	out, _ := os.ReadFile(filepath.Join(tmp, "stdout"))
	errOut, _ := os.ReadFile(filepath.Join(tmp, "stderr"))
	return Output{Code: st.ExitCode(), Stdout: string(out), Stderr: string(errOut)}
}

func ownedByMe(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}
