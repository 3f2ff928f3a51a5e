// Package e2ekit holds what more than one end-to-end package reads of
// the MAIN side's files. faultkit cannot: txwatch's own tests import it.
package e2ekit

import (
	"os"
	"testing"

	"rfhandoff/txwatch"
)

// NodesRecord reads the authorization record at path, which must bind n
// nodes.
func NodesRecord(t *testing.T, path string, n int) txwatch.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := txwatch.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Nodes) != n {
		t.Fatalf("the record binds %d nodes, want %d:\n%s", len(rec.Nodes), n, data)
	}
	return rec
}
