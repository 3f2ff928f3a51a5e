package publish_test

import (
	"strings"
	"testing"

	"rfhandoff/internal/publishtest"
	"rfhandoff/publish"
	"rfhandoff/result"
)

// PROTOCOL#several-nodes, check 7: a task naming its receivers takes only a node
// result from this node; a single-node task only a version 1 result.
// Every refusal leaves the remote as it was; the good one is pushed.
func TestPublishNodeResults(t *testing.T) {
	t.Parallel()
	nodeDoc := func(t *testing.T, f *publishtest.Fixture, name string) []byte {
		b, err := result.EncodeNode(f.Ready(), result.NodeFields{Node: name})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name, nodes, policyName string
		doc                     func(t *testing.T, f *publishtest.Fixture) []byte
		refused                 string // "" published
	}{
		{"node result from this node", "rx-a, rx-b", "rx-b",
			func(t *testing.T, f *publishtest.Fixture) []byte { return nodeDoc(t, f, "rx-b") }, ""},
		{"node result from another node", "rx-a, rx-b", "rx-b",
			func(t *testing.T, f *publishtest.Fixture) []byte { return nodeDoc(t, f, "rx-a") }, `is "rx-a", but this is node "rx-b"`},
		{"version 1 result for a node task", "rx-a, rx-b", "rx-b",
			func(t *testing.T, f *publishtest.Fixture) []byte { return readyBytes(t, f, nil) }, "a node result (schema_version 2) from node \"rx-b\" is required"},
		{"node task, no node name", "rx-a, rx-b", "",
			func(t *testing.T, f *publishtest.Fixture) []byte { return nodeDoc(t, f, "rx-a") }, "this node's policy has no [node] name"},
		{"node task, node not listed", "rx-a, rx-b", "rx-c",
			func(t *testing.T, f *publishtest.Fixture) []byte { return nodeDoc(t, f, "rx-c") }, `does not list [node] name "rx-c"`},
		{"node result for a single-node task", "", "rx-a",
			func(t *testing.T, f *publishtest.Fixture) []byte { return nodeDoc(t, f, "rx-a") }, "must be 1, got 2"},
		{"version 1 result for a single-node task on a named node", "", "rx-a",
			func(t *testing.T, f *publishtest.Fixture) []byte { return readyBytes(t, f, nil) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := publishtest.New(t, publishtest.Options{RXNodes: tc.nodes, NodeName: tc.policyName})
			before := f.Refs(t)
			data := tc.doc(t, f)
			out, err := publish.Publish(t.Context(), f.Deps(), data)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := f.ResultTip(t); got != out.Commit {
					t.Errorf("result branch at %s, published %s", got, out.Commit)
				}
				return
			}
			asCheck(t, err, publish.StepSchema)
			if !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("error %v does not say %q", err, tc.refused)
			}
			if after := f.Refs(t); after != before {
				t.Errorf("refused, but the remote changed:\n%s\n%s", before, after)
			}
		})
	}
}
