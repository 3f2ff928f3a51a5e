package sigmf

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rfhandoff/internal/sigmftest"
	"rfhandoff/result"
)

func digest(s string) string {
	sum := sha512.Sum512([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestBuildCollection(t *testing.T) {
	a, b := digest("a"), digest("b")
	for _, tc := range []struct {
		name    string
		taskID  string
		streams []Stream
		want    string   // the exact document, when accepted
		errs    []string // every reason, when refused
	}{
		{name: "two nodes, in order", taskID: "DF_0001", streams: []Stream{{Node: "rx-b", MetaSHA512: b}, {Node: "rx-a", MetaSHA512: a}},
			want: `{
  "collection": {
    "core:version": "1.2.0",
    "core:description": "Title \"quoted\" <b>",
    "core:streams": [
      {
        "name": "DF_0001-rx-b",
        "hash": "` + b + `"
      },
      {
        "name": "DF_0001-rx-a",
        "hash": "` + a + `"
      }
    ]
  }
}
`},
		{name: "one node", taskID: "DF_0002", streams: []Stream{{Node: "0", MetaSHA512: a}}, want: ""},
		{name: "no streams", taskID: "DF_0003", errs: []string{"collection DF_0003: no streams"}},
		{name: "every problem at once", taskID: "DF_0004", streams: []Stream{
			{Node: "rx-a", MetaSHA512: a}, {Node: "RX-B", MetaSHA512: b}, {Node: "rx-a", MetaSHA512: a}, {Node: "rx-c", MetaSHA512: ""}, {Node: "rx-d", MetaSHA512: strings.ToUpper(a)}},
			errs: []string{`stream 2: "RX-B" is not a node name`, "node rx-a is listed twice",
				"node rx-c: its COMPLETE carries no sigmf_meta_sha512", "node rx-d: sigmf_meta_sha512"}},
		{name: "no task", streams: []Stream{{Node: "rx-a", MetaSHA512: a}}, errs: []string{"collection: no TASK_ID"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BuildCollection(tc.taskID, `Title "quoted" <b>`, tc.streams)
			if tc.errs != nil {
				if got != nil || err == nil {
					t.Fatalf("accepted: %s", got)
				}
				for _, e := range tc.errs {
					if !strings.Contains(err.Error(), e) {
						t.Errorf("error does not say %q:\n%v", e, err)
					}
				}
				if n := strings.Count(err.Error(), "collection "); len(tc.errs) > 1 && n < len(tc.errs) {
					t.Errorf("%d reasons, want %d:\n%v", n, len(tc.errs), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			validateCollection(t, got)
		})
	}
}

func validateCollection(t *testing.T, doc []byte) {
	t.Helper()
	if err := schemaError(t, doc); err != nil {
		t.Fatalf("not a SigMF collection: %v\n%s", err, doc)
	}
}

// schemaError validates doc against sigmftest.CollectionSchema.
func schemaError(t *testing.T, doc []byte) error {
	t.Helper()
	return sigmftest.ValidateCollection(doc)
}

// The schema facts bite: documents breaking them are rejected, so the
// validation above cannot pass by accident.
func TestCollectionSchemaRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"no collection":   `{"global": {}}`,
		"second object":   `{"collection": {"core:version": "1.2.0"}, "global": {}}`,
		"no version":      `{"collection": {"core:streams": []}}`,
		"tuple streams":   `{"collection": {"core:version": "1.2.0", "core:streams": [["a", "b"]]}}`,
		"no hash":         `{"collection": {"core:version": "1.2.0", "core:streams": [{"name": "a"}]}}`,
		"a short hash":    `{"collection": {"core:version": "1.2.0", "core:streams": [{"name": "a", "hash": "abc"}]}}`,
		"numeric version": `{"collection": {"core:version": 1.2}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if schemaError(t, []byte(doc)) == nil {
				t.Errorf("accepted %s", doc)
			}
		})
	}
}

// The collection says how to check each recording: the hash is the
// SHA-512 of <name>.sigmf-meta beside it, exactly as the node wrote it.
func TestWriteCollectionNamesCheckableRecordings(t *testing.T) {
	dir := t.TempDir()
	metas := map[string]string{"rx-a": `{"global": {"core:collection": "DF_0009"}}` + "\n", "rx-b": "{}\n"}
	var streams []Stream
	for _, n := range []string{"rx-a", "rx-b"} {
		if err := os.WriteFile(filepath.Join(dir, "DF_0009-"+n+".sigmf-meta"), []byte(metas[n]), 0o644); err != nil {
			t.Fatal(err)
		}
		streams = append(streams, Stream{Node: n, MetaSHA512: digest(metas[n])})
	}
	path, err := WriteCollection(dir, "DF_0009", "Two nodes", streams)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "collections", "DF_0009.sigmf-collection") {
		t.Errorf("written to %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	validateCollection(t, data)
	var doc struct {
		Collection struct {
			Streams []struct{ Name, Hash string } `json:"core:streams"`
		} `json:"collection"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Collection.Streams) != 2 {
		t.Fatalf("%d streams", len(doc.Collection.Streams))
	}
	for _, s := range doc.Collection.Streams {
		meta, err := os.ReadFile(filepath.Join(dir, s.Name+".sigmf-meta"))
		if err != nil {
			t.Fatal(err)
		}
		if digest(string(meta)) != s.Hash {
			t.Errorf("%s: hash %s is not its metadata's", s.Name, s.Hash)
		}
	}
	// A refused collection writes nothing.
	if _, err := WriteCollection(dir, "DF_0010", "x", []Stream{{Node: "rx-a", MetaSHA512: ""}}); err == nil {
		t.Fatal("accepted a stream without a digest")
	}
	if _, err := os.Stat(CollectionPath(dir, "DF_0010")); err == nil {
		t.Error("a refused collection was written")
	}
}

// A scheduled task's collection gives each node's first sample time and
// bound from its COMPLETE's alignment, and declares the extension they are
// in; a node without one beside nodes with one is refused, named.
func TestBuildCollectionScheduled(t *testing.T) {
	a, b := digest("a"), digest("b")
	start := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
	alignB := &result.Alignment{SyncMode: result.SyncPPS, StartAt: start, FirstSampleAt: start.Add(-25 * time.Nanosecond), Bound: 50 * time.Nanosecond}
	alignA := &result.Alignment{SyncMode: result.SyncPPS, StartAt: start, FirstSampleAt: start.Add(time.Second + 3), Bound: 1302 * time.Microsecond}
	got, err := BuildCollection("DF_0011", "Three nodes", []Stream{
		{Node: "rx-b", MetaSHA512: b, Alignment: alignB}, {Node: "rx-a", MetaSHA512: a, Alignment: alignA}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "collection": {
    "core:version": "1.2.0",
    "core:description": "Three nodes",
    "core:extensions": [
      {
        "name": "rfhandoff",
        "version": "1.1.0",
        "optional": false
      }
    ],
    "core:streams": [
      {
        "name": "DF_0011-rx-b",
        "hash": "` + b + `",
        "rfhandoff:first_sample_at": "2026-07-01T08:59:59.999999975Z",
        "rfhandoff:bound_s": 0.000000050
      },
      {
        "name": "DF_0011-rx-a",
        "hash": "` + a + `",
        "rfhandoff:first_sample_at": "2026-07-01T09:00:01.000000003Z",
        "rfhandoff:bound_s": 0.001302000
      }
    ]
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	validateCollection(t, got)

	_, err = BuildCollection("DF_0012", "x", []Stream{
		{Node: "rx-a", MetaSHA512: a, Alignment: alignA}, {Node: "rx-b", MetaSHA512: b}, {Node: "rx-c", MetaSHA512: ""}})
	for _, e := range []string{"node rx-b: its COMPLETE carries no alignment", "node rx-c: its COMPLETE carries no alignment", "node rx-c: its COMPLETE carries no sigmf_meta_sha512"} {
		if err == nil || !strings.Contains(err.Error(), e) {
			t.Errorf("error does not say %q:\n%v", e, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), "rx-a") {
		t.Errorf("names rx-a, which has its alignment:\n%v", err)
	}
}
