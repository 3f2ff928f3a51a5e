package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/txtest"
	"rfhandoff/result"
)

// withClock returns env with its PATH replaced by one whose timedatectl
// stand-in answers answer (a child keeps the first of two PATHs).
func withClock(t *testing.T, env []string, answer string) []string {
	t.Helper()
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, clockPath(t, answer))
}

// The OS says the clock is not synchronised: rx capture refuses before
// anything is published, naming the report and the waiver; with the
// waiver it captures, saying so.
func TestRxCaptureRefusesAnUnsynchronisedClock(t *testing.T) {
	t.Parallel()
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		s := newCaptureSide(t, "burst", nil)
		refs := s.f.Refs(t)
		sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: withClock(t, s.env, "no")})
		code := exitStatus(t, sess.Wait(time.Minute))
		stderr := sess.Stderr.String()
		if code != 1 {
			t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, sess.Stdout, stderr)
		}
		for _, want := range []string{"rx capture (publishing READY and COMPLETE) refused: the host clock is not synchronised",
			"(timedatectl show -p NTPSynchronized --value: no)", "require_synchronized = false under [clock]"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
		if got := s.f.Refs(t); got != refs {
			t.Errorf("the remote changed:\n%s\nto\n%s", refs, got)
		}
	})
	t.Run("waived", func(t *testing.T) {
		t.Parallel()
		s := newCaptureSideWith(t, "burst", nil, publishtest.Options{}, "\n[clock]\nrequire_synchronized = false\n")
		base := s.f.ResultTip(t)
		sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: withClock(t, s.env, "no")})
		if code := exitStatus(t, sess.Wait(3*time.Minute)); code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, sess.Stdout, sess.Stderr)
		}
		if rs := s.results(t, base); len(rs) != 2 || rs[0].State != result.StateReady || rs[1].State != result.StateComplete {
			t.Fatalf("%d result commits, want READY then COMPLETE", len(rs))
		}
		if !strings.Contains(sess.Stderr.String(), "host clock NOT synchronised; going on, as the policy waives it") {
			t.Errorf("the waiver is not said:\n%s", sess.Stderr)
		}
	})
}

// tx execute refuses a record while the OS says the clock is not
// synchronised, before the record is read or consumed.
func TestTxExecuteRefusesAnUnsynchronisedClock(t *testing.T) {
	t.Parallel()
	s := newTxSide(t, "")
	s.f.Publish(t, txtest.Ready(time.Now()))
	record := s.watchAndAuthorize(t)
	x := prompttest.Start(t, s.bin, []string{"--config", s.policy, "tx", "execute", record},
		prompttest.Options{Dir: s.f.Main, Env: withClock(t, s.env, "no"), CaptureOutput: true})
	if code := exitStatus(t, x.Wait(txWait)); code != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, x.Stdout, x.Stderr)
	}
	if !strings.Contains(x.Stderr.String(), "tx execute refused: the host clock is not synchronised") || !strings.Contains(x.Stderr.String(), "clock.require_synchronized") {
		t.Fatalf("stderr:\n%s", x.Stderr)
	}
	if files := s.authFiles(t); !slices.Equal(files, []string{filepath.Base(record)}) {
		t.Fatalf("authorization dir holds %v", files)
	}
	if s.hackrfStarts(t) != 0 {
		t.Fatal("hackrf_transfer started")
	}
}

// rx publish-result refuses while the OS says the clock is not
// synchronised: nothing pushed.
func TestRxPublishResultRefusesAnUnsynchronisedClock(t *testing.T) {
	t.Parallel()
	home := gittest.Home(t)
	f := publishtest.New(t, publishtest.Options{})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rfhandoff.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[repo]\npath = %q\n", f.Checkout)), 0o600); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, "ready.json")
	if err := os.WriteFile(ready, publishtest.Encode(t, f.Ready()), 0o600); err != nil {
		t.Fatal(err)
	}
	refs := f.Refs(t)
	env := withClock(t, gittest.Environ(home, "RFHANDOFF_CONFIG"), "no")
	out := faultkit.Run(t, env, "", rxWait, "", "--config", cfg, "rx", "publish-result", ready)
	if out.Code != 1 || !strings.Contains(out.Stderr, "rx publish-result refused: the host clock is not synchronised") {
		t.Fatalf("want the clock's refusal: %s", out)
	}
	if got := f.Refs(t); got != refs {
		t.Errorf("the remote changed:\n%s\nto\n%s", refs, got)
	}
}
