package fault

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/capture"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
	"rfhandoff/state"
)

// killIterations bounds the SIGKILL loop of each command. The kill points
// are stratified: iteration i kills at a random point of the i-th of
// killIterations equal slices of the window, so six runs reach every part
// of it, where ten uniform draws could cluster.
const killIterations = 6

// killCase is one long-running command killed at random points.
type killCase struct {
	name string
	side func(*faultkit.Lab) *faultkit.Side
	// prepare makes the next run do work worth interrupting (a new task,
	// a new result) and returns the command's arguments.
	prepare func(t *testing.T, lab *faultkit.Lab, i int) []string
	// lock is the side's watcher lock ("" when the command takes none).
	lock string
	// parse reads the side's state strictly.
	parse func(dir string) error
	// restart runs the command again to a clean end and checks its
	// invariants; i is the iteration.
	restart func(t *testing.T, lab *faultkit.Lab, args []string, i int)
	// killWindow bounds the random kill point (default 600ms).
	killWindow time.Duration
	// orphans deals with the killed process's children before the
	// restart and returns how many the test itself had to end (default
	// killOrphans: all of them).
	orphans func(t *testing.T, lab *faultkit.Lab, i int) int
}

// Invariant: SIGKILL at any point loses nothing and wedges nothing. After
// each kill the lock is free, the state parses, the audit chain verifies
// (at worst a torn last line is named) and every start line left without
// an end reads "interrupted" in `audit show`; after the restart that
// follows, no temp file is left in the state directory and the command
// works again.
func TestFaultSIGKILLLoop(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	t.Logf("random kill points from seed %d", seed)
	rxState := func(dir string) error { _, err := state.LoadRX(dir); return err }
	txState := func(dir string) error { _, err := state.LoadTX(dir); return err }
	cases := []killCase{
		{
			name: "rx watch",
			side: func(l *faultkit.Lab) *faultkit.Side { return l.RX },
			prepare: func(t *testing.T, lab *faultkit.Lab, i int) []string {
				lab.PushTask(tasktest.Capture(fmt.Sprintf("FAULT_KILL_RX_%02d", i)))
				return []string{"rx", "watch"}
			},
			lock: state.RXLockFile, parse: rxState,
			restart: func(t *testing.T, lab *faultkit.Lab, args []string, i int) {
				stopCleanly(t, lab.RX, args, false)
			},
		},
		{
			name: "tx watch",
			side: func(l *faultkit.Lab) *faultkit.Side { return l.Main },
			prepare: func(t *testing.T, lab *faultkit.Lab, i int) []string {
				if i == 0 {
					lab.PushTask(tasktest.Capture("FAULT_KILL_TX"))
				}
				lab.PushResult(lab.Encode(lab.Ready("FAULT_KILL_TX")))
				return []string{"tx", "watch"}
			},
			lock: state.TXLockFile, parse: txState,
			restart: func(t *testing.T, lab *faultkit.Lab, args []string, i int) {
				stopCleanly(t, lab.Main, args, true)
			},
		},
		{
			name: "rx publish-result",
			side: func(l *faultkit.Lab) *faultkit.Side { return l.RX },
			prepare: func(t *testing.T, lab *faultkit.Lab, i int) []string {
				if i == 0 {
					commit, data := lab.PushTask(tasktest.Capture("FAULT_KILL_PUB"))
					lab.Approve("FAULT_KILL_PUB", data, commit)
				}
				r := lab.Ready("FAULT_KILL_PUB")
				r.CapturePID = int64(1000 + i) // a distinct result each time
				return []string{"rx", "publish-result", lab.WriteResult(lab.Encode(r))}
			},
			parse: rxState,
			restart: func(t *testing.T, lab *faultkit.Lab, args []string, i int) {
				out := lab.RX.Run(faultkit.Wait, args...)
				if out.Code != 0 {
					t.Fatalf("publish after a kill: want exit 0\n%s", out)
				}
				checkNoDuplicateResults(t, lab)
				// A killed publisher's clone (which may hold the remote's
				// password) is removed by the next publish.
				if n := countPrefix(t, lab.Tmp, "rfhandoff-clone-"); n != 0 {
					t.Fatalf("%d temporary clones left in TMPDIR after the next publish", n)
				}
			},
		},
		{
			name: "rx capture",
			side: func(l *faultkit.Lab) *faultkit.Side { return l.RX },
			prepare: func(t *testing.T, lab *faultkit.Lab, i int) []string {
				// A new task each time: a capture file, once created, is never
				// overwritten, so a killed capture's task cannot run again.
				id := fmt.Sprintf("FAULT_KILL_CAP_%02d", i)
				commit, data := lab.PushTask(tasktest.Capture(id))
				lab.Approve(id, data, commit)
				return []string{"rx", "capture", id}
			},
			lock: capture.LockFile, parse: rxState,
			// The killed rx capture's hackrf_transfer gets SIGINT from its
			// parent's death (Pdeathsig) and ends by itself: in even
			// iterations the test waits for that, in odd ones it leaves
			// the orphan to the restart, whose recovery must wait for it.
			orphans: func(t *testing.T, lab *faultkit.Lab, i int) int {
				if i%2 == 1 {
					return 0
				}
				faultkit.Eventually(t, faultkit.Wait, "the killed capture's hackrf_transfer to end on its own", func() bool {
					return len(faultkit.LiveProcsMentioning(lab.RX.Dir)) == 0
				})
				return killOrphans(t, lab) // the safety net; Eventually has made it 0
			},
			restart: func(t *testing.T, lab *faultkit.Lab, args []string, i int) {
				out := stopCaptureCleanly(t, lab, args)
				checkCaptureSettled(t, lab, args[2], out, i)
			},
			killWindow: 2500 * time.Millisecond,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(len(c.name))))
			lab := faultkit.NewLab(t)
			side := c.side(lab)
			interrupted, orphans := 0, 0
			for i := range killIterations {
				args := c.prepare(t, lab, i)
				s := side.Start(args...)
				window := c.killWindow
				if window == 0 {
					window = 600 * time.Millisecond
				}
				slice := window / killIterations
				delay := time.Duration(i)*slice + time.Duration(rng.Int64N(int64(slice)))
				time.Sleep(delay) // the random kill point in its slice
				if !s.Exited() {
					s.Signal(syscall.SIGKILL)
				}
				s.Wait(faultkit.Wait)
				// Its children are in their own process groups: only the
				// SIGINT they get when their parent dies (Pdeathsig) ends
				// them. End any that survive, as a safety net.
				if c.orphans != nil {
					orphans += c.orphans(t, lab, i)
				} else {
					orphans += killOrphans(t, lab)
				}
				interrupted += checkAfterKill(t, side, c.lock, c.parse, s.Pid())
				c.restart(t, lab, args, i)
				if tmp := faultkit.TempFiles(t, side.StateDir()); len(tmp) != 0 {
					t.Fatalf("iteration %d (kill after %v): temp files left after the restart: %v", i, delay, tmp)
				}
				// The mirror survives a kill mid-fetch: the restart polled
				// through it and cleared what the killed git left.
				if left := faultkit.MirrorLeftovers(t, side.StateDir()); len(left) != 0 {
					t.Fatalf("iteration %d (kill after %v): mirror leftovers after the restart: %v", i, delay, left)
				}
			}
			t.Logf("%d iterations, %d interrupted subprocesses shown as interrupted, %d orphaned children ended by the test",
				killIterations, interrupted, orphans)
		})
	}
	// A kill in the middle of a subprocess, for certain: the remote is a
	// black hole, so the fetch is still running when the watcher dies.
	t.Run("rx watch during a hanging fetch", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		hole := faultkit.StartBlackHole(t)
		lab.RX.SetRemoteURL(hole.URL("remote.git"))
		s := lab.RX.Start("rx", "watch")
		faultkit.Eventually(t, faultkit.Wait, "a fetch in progress", func() bool {
			return faultkit.CountCalls(faultkit.FetchCalls(t, lab.RX), func(c faultkit.Call) bool { return c.End == nil }) > 0
		})
		s.Signal(syscall.SIGKILL)
		s.Wait(faultkit.Wait)
		if n := checkAfterKill(t, lab.RX, state.RXLockFile, rxState, s.Pid()); n == 0 {
			t.Fatal("the fetch in progress was not left as an interrupted start line")
		}
		// The restart against the black hole still cleans up and stops cleanly.
		lab.RX.Policy.Poll.GitTimeout = config.Duration{Duration: time.Second}
		lab.RX.WritePolicy()
		stopCleanly(t, lab.RX, []string{"rx", "watch"}, false)
	})
}

// checkAfterKill checks what must hold right after the process pid was
// killed and returns how many of its subprocesses were left interrupted.
func checkAfterKill(t *testing.T, side *faultkit.Side, lock string, parse func(string) error, pid int) int {
	t.Helper()
	if lock != "" {
		// A child forked at the moment of the kill holds the descriptor
		// until its exec closes it: allow that instant, nothing more.
		path := filepath.Join(side.StateDir(), lock)
		deadline := time.Now().Add(5 * time.Second)
		for faultkit.LockHeld(t, path) {
			if time.Now().After(deadline) {
				t.Fatalf("%s held 5s after its holder %d was killed; open by: %q", lock, pid, faultkit.Holders(path))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err := parse(side.StateDir()); err != nil {
		t.Fatalf("state after SIGKILL of %d: %v", pid, err)
	}
	faultkit.CheckAuditChain(t, side.AuditPath())
	var mine []int64
	for _, e := range faultkit.Interrupted(faultkit.AuditEntries(t, side.AuditPath())) {
		if e.Rfhandoff == pid {
			mine = append(mine, e.Seq)
		}
	}
	if len(mine) == 0 {
		return 0
	}
	show := side.Run(faultkit.Wait, "audit", "show")
	if show.Code != 0 {
		t.Fatalf("audit show after a kill:\n%s", show)
	}
	for _, seq := range mine {
		if line := faultkit.ShowLine(show.Stdout, seq); !strings.Contains(line, "interrupted") {
			t.Errorf("start line #%d of killed process %d shows as %q, want interrupted", seq, pid, line)
		}
	}
	return len(mine)
}

// stopCleanly restarts a watcher, waits until it runs, stops it with
// SIGTERM and checks it stopped cleanly: exit 0, running = false, lock free.
func stopCleanly(t *testing.T, side *faultkit.Side, args []string, tx bool) {
	t.Helper()
	s := side.Start(args...)
	faultkit.WatcherUp(t, side, s.Pid(), tx)
	s.Signal(syscall.SIGTERM)
	if st := s.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("%s after a restart and SIGTERM: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), st.ExitCode(), s.Stdout.String(), s.Stderr.String())
	}
	running := true
	if tx {
		st, err := state.LoadTX(side.StateDir())
		if err != nil {
			t.Fatal(err)
		}
		running = st.Running
	} else {
		st, err := state.LoadRX(side.StateDir())
		if err != nil {
			t.Fatal(err)
		}
		running = st.Running
	}
	if running {
		t.Fatalf("%s stopped cleanly but the state still says running", strings.Join(args, " "))
	}
}

// checkNoDuplicateResults fails when two commits on the result branch
// wrote the same RX_RESULT.json bytes.
func checkNoDuplicateResults(t *testing.T, lab *faultkit.Lab) {
	t.Helper()
	seen := map[string]string{}
	for _, c := range strings.Fields(faultkit.GitOut(t, lab, "log", "--format=%H", "refs/heads/"+tasktest.ResultBranch, "--", tasktest.ResultPath)) {
		blob := strings.TrimSpace(faultkit.GitOut(t, lab, "rev-parse", c+":"+tasktest.ResultPath))
		if prev, dup := seen[blob]; dup {
			t.Fatalf("commits %s and %s both published the same result %s", prev, c, blob)
		}
		seen[blob] = c
	}
}

// stopCaptureCleanly runs `rx capture` for the killed run's task again
// and returns its stdout. It first publishes COMPLETE for a killed capture
// that had recorded itself (READY published or being published), then
// either refuses (the killed run's capture file exists and is never
// overwritten) or starts; a started capture is stopped with SIGINT once
// READY is out, and must end with 130 and COMPLETE published.
func stopCaptureCleanly(t *testing.T, lab *faultkit.Lab, args []string) string {
	t.Helper()
	// A capture killed after READY leaves READY standing until the restart.
	if res, err := lab.R.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: lab.Remote.Dir,
		Args: []string{"cat-file", "blob", "--end-of-options", "refs/heads/" + tasktest.ResultBranch + ":" + tasktest.ResultPath}}); err == nil &&
		strings.Contains(string(res.Stdout), `"RX_READY_FOR_TX"`) && strings.Contains(string(res.Stdout), `"`+args[2]+`"`) {
		t.Logf("the killed capture of %s left READY standing on the result branch; the restart must supersede it", args[2])
	}
	s := lab.RX.Start(args...)
	faultkit.Eventually(t, faultkit.Wait, "rx capture to refuse or publish READY", func() bool {
		return s.Exited() || strings.Contains(s.Stderr.String(), "READY published")
	})
	if !s.Exited() {
		s.Signal(syscall.SIGINT)
		if code := s.Wait(faultkit.Wait).ExitCode(); code != 130 || !strings.Contains(s.Stderr.String(), "COMPLETE published") {
			t.Fatalf("rx capture after SIGINT: exit %d, want 130 with COMPLETE published\nstderr:\n%s", code, s.Stderr.String())
		}
		t.Logf("restart: a new capture started and was interrupted cleanly")
		return s.Stdout.String()
	}
	code := s.Wait(faultkit.Wait).ExitCode()
	if code != 1 || !strings.Contains(s.Stderr.String(), "never overwritten") {
		t.Fatalf("rx capture of a task whose capture was killed: exit %d, want 1 refusing to overwrite\nstdout:\n%s\nstderr:\n%s", code, s.Stdout.String(), s.Stderr.String())
	}
	t.Logf("restart: refused, the killed capture's file is kept")
	return s.Stdout.String()
}

// checkCaptureSettled checks what must hold once the restart of a killed
// `rx capture` of task id is done (out is its stdout): no hackrf_transfer
// left running, no capture recorded in progress, and on the result branch
// every READY of the task followed by a COMPLETE of the same capture; a
// COMPLETE the recovery published (exit -1) has the file's real size and
// SHA-256.
func checkCaptureSettled(t *testing.T, lab *faultkit.Lab, id, out string, i int) {
	t.Helper()
	if n := killOrphans(t, lab); n > 0 {
		t.Errorf("iteration %d: %d processes of the killed capture still ran after the restart", i, n)
	}
	st, err := state.LoadRX(lab.RX.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	if st.CaptureInProgress != nil {
		t.Errorf("iteration %d: capture_in_progress left after the restart: %+v", i, st.CaptureInProgress)
	}
	var rs []*result.Result // the task's results, oldest first
	commits := strings.Fields(faultkit.GitOut(t, lab, "log", "--reverse", "--format=%H", "refs/heads/"+tasktest.ResultBranch, "--", tasktest.ResultPath))
	for _, c := range commits {
		r, err := result.Decode([]byte(faultkit.GitOut(t, lab, "show", c+":"+tasktest.ResultPath)), result.Options{})
		if err != nil {
			t.Fatalf("result commit %s: %v", c, err)
		}
		if r.TaskID == id {
			rs = append(rs, r)
		}
	}
	for k, r := range rs {
		if r.State != result.StateReady {
			continue
		}
		if !slices.ContainsFunc(rs[k+1:], func(c *result.Result) bool {
			return c.State == result.StateComplete && c.CapturePID == r.CapturePID && c.CaptureStartedAt.Equal(r.CaptureStartedAt)
		}) {
			t.Fatalf("iteration %d: READY of %s (capture_pid %d) was never followed by its COMPLETE: half-published", i, id, r.CapturePID)
		}
	}
	recovered := strings.Contains(out, "recovered: the capture of "+id)
	if !recovered {
		return
	}
	last := rs[len(rs)-1]
	data := filepath.Join(lab.RX.Policy.CaptureDir(), id, id+capture.DataSuffix)
	file, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if last.State != result.StateComplete || *last.CaptureExitCode != -1 || *last.CaptureSHA256 != faultkit.SHA256Hex(file) ||
		*last.CaptureSizeBytes != int64(len(file)) || last.CommonClockVerified {
		t.Fatalf("iteration %d: recovered COMPLETE %+v does not describe %s (%d bytes)", i, last, data, len(file))
	}
	how := "after the orphan had ended"
	if strings.Contains(out, "was still running when the recovery began") {
		how = "after waiting for the still running orphan"
	}
	t.Logf("iteration %d: the restart published COMPLETE (exit -1, %d bytes) for the killed capture %s", i, len(file), how)
}

// killOrphans kills the processes still running whose command line
// names a path inside the lab's RX checkout (a killed capture's
// hackrf_transfer), and waits until they are gone.
func killOrphans(t *testing.T, lab *faultkit.Lab) int {
	t.Helper()
	n := 0
	for _, pid := range faultkit.ProcsMentioning(lab.RX.Dir) {
		if pid != os.Getpid() && faultkit.Alive(pid) {
			n++
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
			faultkit.Eventually(t, faultkit.Wait, "an orphan to die", func() bool { return !faultkit.Alive(pid) })
		}
	}
	return n
}

// countPrefix counts the entries of dir whose name starts with prefix.
func countPrefix(t *testing.T, dir, prefix string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if strings.HasPrefix(e.Name(), prefix) {
			n++
		}
	}
	return n
}
