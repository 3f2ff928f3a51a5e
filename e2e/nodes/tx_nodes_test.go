package nodes

import (
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"rfhandoff/capture"
	"rfhandoff/config"
	"rfhandoff/gate"
	"rfhandoff/internal/e2ekit"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/sigmftest"
	"rfhandoff/internal/testbin"
	"rfhandoff/sigmf"
)

// TestTxWatchThreeNodesWithTheSimulator (PROTOCOL#several-nodes): three RX nodes,
// each its own checkout, state dir, policy and branch, capture the one
// task with the simulator and publish on their own branches; the MAIN
// side's tx watch, on a real pty, asks for the phrase once for all three,
// writes one record binding the three READY commits, and once every node
// has published COMPLETE writes the SigMF Collection naming each node's
// recording with the SHA-512 of the .sigmf-meta that node wrote.
func TestTxWatchThreeNodesWithTheSimulator(t *testing.T) {
	t.Parallel()
	nodes := []string{"rx-a", "rx-b", "rx-c"}
	f := publishtest.New(t, publishtest.Options{RXNodes: strings.Join(nodes, ", "), NoApproval: true})
	const planned = nodesPlanned // s: long enough for MAIN to see three READYs and the phrase
	sc := startScenario(t, f, nodes, planned, func(int) []string { return nil }, func(int) []string { return []string{"HACKRF_SIM=burst"} })
	caps, captureDirs, mainPol, w := sc.caps, sc.captureDirs, sc.mainPol, sc.w
	w.WaitForText("Type exactly: AUTHORIZE RF TX", 3*time.Minute)
	w.Stdout.WaitForText("one phrase for all 3", faultkit.Wait) // the offer, one for the three nodes
	w.Send(gate.TXPhrase)
	m := w.Stdout.WaitFor(regexp.MustCompile(`AUTHORIZED: record (\S+) for 3 nodes`), faultkit.Wait)
	rec := e2ekit.NodesRecord(t, m[1], 3)
	for i, n := range nodes {
		if b := rec.Nodes[i]; b.Node != n || b.ResultBranch != n || b.ResultCommit == rec.Nodes[(i+1)%3].ResultCommit {
			t.Errorf("record node %d: %+v", i, b)
		}
	}

	for i, c := range caps {
		if code := c.Wait(3 * time.Minute).ExitCode(); code != 0 {
			t.Fatalf("rx capture on %s exited %d\nstdout:\n%s\nstderr:\n%s", nodes[i], code, c.Stdout, c.Stderr)
		}
	}
	path := sigmf.CollectionPath(mainPol.StatePath(), publishtest.TaskID)
	w.Stdout.WaitForText("collection "+path, faultkit.Wait)
	w.Signal(syscall.SIGINT)
	if code := w.Wait(faultkit.Wait).ExitCode(); code != 0 {
		t.Fatalf("tx watch exited %d after SIGINT; stderr:\n%s", code, w.Stderr)
	}
	version, streams := sigmftest.ReadCollection(t, path)
	if version != sigmf.CollectionVersion || len(streams) != 3 {
		t.Fatalf("collection %s: version %q, streams %+v", path, version, streams)
	}
	for i, n := range nodes {
		meta, err := os.ReadFile(filepath.Join(captureDirs[n], publishtest.TaskID+"-"+n+capture.MetaSuffix))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha512.Sum512(meta)
		if s := streams[i]; s.Name != publishtest.TaskID+"-"+n || s.Hash != hex.EncodeToString(sum[:]) {
			t.Errorf("stream %d %+v, want %s-%s with the SHA-512 of its .sigmf-meta", i, s, publishtest.TaskID, n)
		}
	}
}

// scenario is a three-node run under way: each node's rx capture, its
// capture directory, and MAIN's policy and tx watch on a real pty.
type scenario struct {
	caps        []*prompttest.Session
	captureDirs map[string]string
	mainPol     config.Policy
	w           *prompttest.Session
}

// startScenario gives each node of f's task its own checkout, state dir,
// policy (extra(i)'s lines appended: a [sync] table) and branch, approves the task
// there with that policy's plan, and starts its rx capture with the
// simulator and env(i) added to the environment; then MAIN's tx watch.
func startScenario(t *testing.T, f *publishtest.Fixture, nodes []string, planned int, extra, env func(i int) []string) *scenario {
	t.Helper()
	bin := faultkit.Bin(t)
	home := gittest.Home(t)
	// A rehearsal: the nodes capture with the simulator, and say so.
	tools := "[tools]\nallow_simulator = true\n"
	for _, name := range testbin.SimulatorNames {
		tools += fmt.Sprintf("%s = %q\n", name, faultkit.SimulatorPath(t, name)) // the simulator
	}
	sc := &scenario{captureDirs: map[string]string{}}
	mainNodes := ""
	for i, n := range nodes {
		publishtest.SeedResultBranch(t, f.Remote, n, map[string]string{"README.md": "results of " + n + "\n"})
		g := *f // the node's own checkout and state dir
		g.Checkout = gittest.Clone(t, f.Remote, f.Policy.Repo.TaskBranch)
		g.Policy.Repo.Path = g.Checkout
		g.StateDir = filepath.Join(g.Checkout, f.Policy.Repo.StateDir)
		if err := os.Mkdir(g.StateDir, 0o700); err != nil {
			t.Fatal(err)
		}
		policy := filepath.Join(t.TempDir(), n+".toml")
		toml := fmt.Sprintf("[repo]\npath = %q\nresult_branch = %q\n\n[limits]\nplanned_duration_s = %d\n\n[node]\nname = %q\n\n%s\n%s",
			g.Checkout, n, planned, n, tools, strings.Join(extra(i), "\n"))
		if err := os.WriteFile(policy, []byte(toml), 0o600); err != nil {
			t.Fatal(err)
		}
		pol, err := config.Load(policy)
		if err != nil {
			t.Fatal(err)
		}
		g.Policy = pol // the approval binds this node's capture plan
		g.Approve(t, publishtest.TaskID, f.TaskData, f.TaskCommit)
		sc.captureDirs[n] = filepath.Join(pol.CaptureDir(), publishtest.TaskID)
		// env(i) replaces what it names (PATH, say).
		unset := []string{"RFHANDOFF_CONFIG", "HACKRF_SIM"}
		for _, kv := range env(i) {
			k, _, _ := strings.Cut(kv, "=")
			unset = append(unset, k)
		}
		nodeEnv := append(gittest.Environ(home, unset...), env(i)...)
		sc.caps = append(sc.caps, prompttest.StartDetached(t, bin, []string{"--config", policy, "rx", "capture", publishtest.TaskID},
			prompttest.Options{Dir: g.Checkout, Env: nodeEnv}))
		mainNodes += fmt.Sprintf("[[nodes]]\nname = %q\nresult_branch = %q\n\n", n, n)
	}

	mainCo := gittest.Clone(t, f.Remote, f.Policy.Repo.TaskBranch)
	mainPolicy := filepath.Join(t.TempDir(), "main.toml")
	toml := fmt.Sprintf("[repo]\npath = %q\n\n[poll]\nrx_interval = \"200ms\"\ntx_interval = \"200ms\"\nmax_backoff = \"1s\"\n\n[limits]\nplanned_duration_s = %d\n%s\n[tools]\nallow_simulator = true\n\n[tx]\nduration_s = 1\n\n%s",
		mainCo, planned, nodesLimits, mainNodes)
	if err := os.WriteFile(mainPolicy, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	if sc.mainPol, err = config.Load(mainPolicy); err != nil {
		t.Fatalf("the MAIN policy does not load: %v", err)
	}
	mainEnv := append(gittest.Environ(home, "RFHANDOFF_CONFIG", "HACKRF_SIM"), "RFHANDOFF_CONFIG=", "HACKRF_SIM=")
	sc.w = prompttest.Start(t, bin, []string{"--config", mainPolicy, "tx", "watch"},
		prompttest.Options{Dir: mainCo, Env: mainEnv, CaptureOutput: true})
	t.Cleanup(func() { // what each side said, when the scenario fails
		if t.Failed() {
			t.Logf("tx watch stdout:\n%s\nstderr:\n%s", sc.w.Stdout, sc.w.Stderr)
			for i, c := range sc.caps {
				t.Logf("rx capture on %s stderr:\n%s", nodes[i], c.Stderr)
			}
		}
	})
	return sc
}
