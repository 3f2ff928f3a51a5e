package e2e

import (
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/capture"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/publishtest"
	"rfhandoff/internal/rxtest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/result"
)

// TestRxCaptureNodeResult (PROTOCOL#several-nodes): rx capture of a task with
// RX_NODES on node rx-b, with the simulator and real git: READY and
// COMPLETE are node results from rx-b, the recording is <TASK_ID>-rx-b
// with core:collection set, and COMPLETE carries the SHA-512 of exactly
// the .sigmf-meta written.
func TestRxCaptureNodeResult(t *testing.T) {
	t.Parallel()
	s := newCaptureSideWith(t, "burst", nil, publishtest.Options{RXNodes: "rx-a, rx-b"}, "\n[node]\nname = \"rx-b\"\n")
	base := s.f.ResultTip(t)
	sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
	code := exitStatus(t, sess.Wait(3*time.Minute))
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, sess.Stdout.String(), sess.Stderr.String())
	}
	rs, nfs, docs := s.decodeResults(t, base, result.Options{Node: "rx-b"})
	if len(rs) != 2 || rs[0].State != result.StateReady || rs[1].State != result.StateComplete {
		t.Fatalf("%d result commits, want READY then COMPLETE", len(rs))
	}
	for i, r := range rs {
		if r.SchemaVersion != result.NodeSchemaVersion || nfs[i].Node != "rx-b" {
			t.Errorf("result %d: schema_version %d node %q", i, r.SchemaVersion, nfs[i].Node)
		}
	}
	if nfs[0].SigMFMetaSHA512 != nil {
		t.Errorf("READY carries a metadata digest")
	}
	if !bytes.Contains(docs[1], []byte("\"node\": \"rx-b\"")) {
		t.Errorf("COMPLETE does not name the node:\n%s", docs[1])
	}

	dir := filepath.Join(s.f.Policy.CaptureDir(), publishtest.TaskID)
	rec := filepath.Join(dir, publishtest.TaskID+"-rx-b")
	data, err := os.ReadFile(rec + capture.DataSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if *rs[1].CaptureSHA256 != faultkit.SHA256Hex(data) {
		t.Errorf("COMPLETE capture_sha256 %s, file %s", *rs[1].CaptureSHA256, faultkit.SHA256Hex(data))
	}
	meta, err := os.ReadFile(rec + capture.MetaSuffix)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha512.Sum512(meta)
	if got := nfs[1].SigMFMetaSHA512; got == nil || *got != hex.EncodeToString(sum[:]) {
		t.Errorf("COMPLETE sigmf_meta_sha512 %v, the .sigmf-meta's is %x", got, sum)
	}
	var m struct {
		Global map[string]any `json:"global"`
	}
	if err := json.Unmarshal(meta, &m); err != nil {
		t.Fatal(err)
	}
	data512 := sha512.Sum512(data)
	if m.Global["core:collection"] != publishtest.TaskID || m.Global["core:sha512"] != hex.EncodeToString(data512[:]) {
		t.Errorf("metadata global: core:collection %v, core:sha512 %v", m.Global["core:collection"], m.Global["core:sha512"])
	}
	if _, err := os.Stat(rec + capture.PNGSuffix); err != nil {
		t.Error(err)
	}
	// Nothing under the single-node name.
	if _, err := os.Stat(filepath.Join(dir, publishtest.TaskID+capture.DataSuffix)); err == nil {
		t.Errorf("a recording named %s exists beside the node's", publishtest.TaskID)
	}
}

// A node not named in RX_NODES starts nothing and publishes nothing.
func TestRxCaptureNotForThisNode(t *testing.T) {
	t.Parallel()
	for name, more := range map[string]string{
		"other node": "\n[node]\nname = \"rx-c\"\n",
		"no name":    "",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newCaptureSideWith(t, "fast", nil, publishtest.Options{RXNodes: "rx-a, rx-b"}, more)
			before := s.f.Refs(t)
			sess := prompttest.StartDetached(t, s.bin, s.args(publishtest.TaskID), prompttest.Options{Dir: s.f.Checkout, Env: s.env})
			if code := exitStatus(t, sess.Wait(rxWait)); code != 1 {
				t.Fatalf("exit %d, want 1\nstderr:\n%s", code, sess.Stderr.String())
			}
			if !strings.Contains(sess.Stderr.String(), "nothing started") {
				t.Errorf("stderr does not say nothing started:\n%s", sess.Stderr.String())
			}
			if after := s.f.Refs(t); after != before {
				t.Errorf("the remote changed:\n%s\n%s", before, after)
			}
			if _, err := os.Stat(filepath.Join(s.f.Policy.CaptureDir(), publishtest.TaskID)); err == nil {
				t.Errorf("a capture directory was made")
			}
		})
	}
}

// TestRxApproveNodes (PROTOCOL#several-nodes): at a real terminal, rx approve of a
// task whose RX_NODES does not list this node refuses without showing the
// menu and approves nothing; the listed node is offered it.
func TestRxApproveNodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		node    string
		offered bool
		says    string
	}{
		{"rx-c", false, `is not for this node (RX_NODES = rx-a, rx-b, [node] name = "rx-c"): nothing approved`},
		{"", false, "this node's policy has no [node] name"},
		{"rx-b", true, "approved task NODES_APPROVE_1"},
	} {
		t.Run("node "+tc.node, func(t *testing.T) {
			t.Parallel()
			rx := rxtest.New(t, rxtest.Options{})
			rx.Policy.Node.Name = tc.node
			rx.WritePolicy()
			rx.PushTask(tasktest.TaskSpec{ID: "NODES_APPROVE_1", RXNodes: "rx-a, rx-b"})
			s := rxTerminal(t, rx, "rx", "approve", "NODES_APPROVE_1")
			if tc.offered {
				s.WaitForText(menu, rxWait)
				s.Send("A")
			}
			code := exitOf(t, s)
			if tc.offered != (code == 0) || !strings.Contains(s.Stdout.String()+s.Stderr.String(), tc.says) {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, s.Stdout, s.Stderr)
			}
			if !tc.offered && strings.Contains(s.TTY.String(), menu) {
				t.Errorf("the approval menu was shown:\n%s", s.TTY)
			}
			if st := loadRX(t, rx); (st.LastApprovedTaskID == "NODES_APPROVE_1") != tc.offered {
				t.Errorf("last_approved_task_id %q", st.LastApprovedTaskID)
			}
		})
	}
}
