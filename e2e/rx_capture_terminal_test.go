//go:build unix

package e2e

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/capture"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/result"
)

// wantFullComplete checks that the capture of s published READY then a
// COMPLETE describing all its planned samples.
func wantFullComplete(t *testing.T, s *captureSide, base string) {
	t.Helper()
	rs := s.results(t, base)
	if len(rs) != 2 || rs[0].State != result.StateReady || rs[1].State != result.StateComplete {
		t.Fatalf("%d result commits after the capture, want READY then COMPLETE", len(rs))
	}
	if cp := rs[1]; *cp.CaptureSizeBytes != 2*2_000_000*15 || *cp.CaptureExitCode != 0 {
		t.Errorf("COMPLETE: %d bytes, exit %d; want the whole 15 s, exit 0", *cp.CaptureSizeBytes, *cp.CaptureExitCode)
	}
}

// waitReady waits until READY is on the remote: the capture runs.
func waitReady(t *testing.T, s *captureSide, base string) {
	t.Helper()
	faultkit.Eventually(t, rxWait, "READY on the result branch", func() bool { return s.f.ResultTip(t) != base })
}

// TestRxCaptureOutlivesItsTerminal: an ssh drop or a killed tmux session
// (SIGHUP; with the terminal itself closed, its writes fail too) and a
// closed stdout and stderr (`| head`) do not end rx capture: it runs to
// its planned end and publishes its COMPLETE (PROTOCOL#capture).
func TestRxCaptureOutlivesItsTerminal(t *testing.T) {
	t.Parallel()
	t.Run("terminal closed", func(t *testing.T) {
		t.Parallel()
		s := newCaptureSide(t, "", nil)
		base := s.f.ResultTip(t)
		sess := prompttest.Start(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
		waitReady(t, s, base)
		sess.Hangup() // the kernel's SIGHUP; the progress display's writes fail (EIO) from now on
		if code := exitStatus(t, sess.Wait(rxWait)); code != 0 {
			t.Fatalf("rx capture after its terminal closed: exit %d", code)
		}
		wantFullComplete(t, s, base)
	})
	t.Run("SIGHUP", func(t *testing.T) {
		t.Parallel()
		s := newCaptureSide(t, "", nil)
		base := s.f.ResultTip(t)
		sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
		waitReady(t, s, base)
		sess.Signal(syscall.SIGHUP)
		if code := exitStatus(t, sess.Wait(rxWait)); code != 0 {
			t.Fatalf("rx capture after SIGHUP: exit %d\n%s", code, sess.Stderr)
		}
		if !strings.Contains(sess.Stderr.String(), "the capture goes on to its planned end") {
			t.Errorf("stderr does not say the capture goes on:\n%s", sess.Stderr)
		}
		wantFullComplete(t, s, base)
	})
	t.Run("closed stdout and stderr", func(t *testing.T) {
		t.Parallel()
		s := newCaptureSide(t, "", nil)
		base := s.f.ResultTip(t)
		var files []*os.File
		for range 2 {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // nobody reads: every write is EPIPE (SIGPIPE by default)
			files = append(files, w)
		}
		null, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		p, err := os.StartProcess(s.bin, append([]string{s.bin}, s.args(publishtest.TaskID)...), &os.ProcAttr{
			Dir: s.f.Checkout, Env: s.env, Files: []*os.File{null, files[0], files[1]},
			Sys: &syscall.SysProcAttr{Setsid: true},
		})
		for _, f := range append(files, null) {
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Kill() })
		ps, err := p.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if ps.ExitCode() != 0 {
			t.Errorf("rx capture with its outputs closed: %s", ps)
		}
		wantFullComplete(t, s, base)
	})
}

// TestRxWatchRecoversADeadCapture: rx capture SIGKILLed during a capture
// while rx watch runs: the watcher publishes the honest COMPLETE at its
// next poll (no restart), with the quick-look and SigMF metadata beside
// the capture.
func TestRxWatchRecoversADeadCapture(t *testing.T) {
	t.Parallel()
	s := newCaptureSideWith(t, "", nil, publishtest.Options{}, "\n[poll]\nrx_interval = \"250ms\"\n")
	base := s.f.ResultTip(t)
	w := prompttest.StartDetached(t, s.bin, []string{"--config", s.policy, "rx", "watch"}, prompttest.Options{Dir: s.f.Checkout, Env: s.env})
	w.Stderr.WaitForText("watching the task branch", rxWait)
	c := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
	waitReady(t, s, base)
	c.Signal(syscall.SIGKILL)
	c.Wait(rxWait)
	w.Stdout.WaitForText("recovered: the capture of "+publishtest.TaskID, rxWait)
	rs := s.results(t, base)
	if len(rs) != 2 || rs[1].State != result.StateComplete || *rs[1].CaptureExitCode != -1 {
		t.Fatalf("%d result commits, want READY then the recovered COMPLETE (exit -1)", len(rs))
	}
	rec := strings.TrimSuffix(s.dataPath(), capture.DataSuffix)
	for _, p := range []string{rec + capture.MetaSuffix, rec + capture.PNGSuffix} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s after the recovery: %v", p, err)
		}
	}
	w.Signal(syscall.SIGTERM)
	if code := exitStatus(t, w.Wait(rxWait)); code != 0 {
		t.Errorf("rx watch: exit %d\n%s", code, w.Stderr)
	}
}
