package result

import (
	"bytes"
	"strings"
	"testing"
)

func nodeComplete(t *testing.T) []byte {
	t.Helper()
	out, err := EncodeNode(sampleComplete(), NodeFields{Node: "rx-b", SigMFMetaSHA512: new(strings.Repeat("ab", 64))})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// PROTOCOL#several-nodes: a node result is the version 1 document with schema_version
// 2 and node, sigmf_meta_sha512 after rf_tx.
func TestEncodeNode(t *testing.T) {
	out := nodeComplete(t)
	v1, err := Encode(sampleComplete())
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(v1, []byte(`"schema_version": 1,`), []byte(`"schema_version": 2,`), 1)
	want = bytes.Replace(want, []byte("\"rf_tx\": 0\n}"), []byte("\"rf_tx\": 0,\n  \"node\": \"rx-b\",\n  \"sigmf_meta_sha512\": \""+strings.Repeat("ab", 64)+"\"\n}"), 1)
	if !bytes.Equal(out, want) {
		t.Errorf("EncodeNode:\n%s\nwant\n%s", out, want)
	}
	r, nf, err := DecodeNode(out, Options{Node: "rx-b"})
	if err != nil {
		t.Fatal(err)
	}
	if r.SchemaVersion != NodeSchemaVersion || nf.Node != "rx-b" || *nf.SigMFMetaSHA512 != strings.Repeat("ab", 64) {
		t.Errorf("DecodeNode = %d, %+v", r.SchemaVersion, nf)
	}
	if _, nf, err := DecodeNode(out, Options{Node: AnyNode}); err != nil || nf.Node != "rx-b" {
		t.Errorf("AnyNode: %+v, %v", nf, err)
	}
	// A version 1 result has no node keys: Encode refuses a version 2 Result.
	r.SchemaVersion = NodeSchemaVersion
	if _, err := Encode(r); err == nil {
		t.Error("Encode wrote a schema_version 2 result without node keys")
	}
	if _, err := EncodeNode(sampleComplete(), NodeFields{Node: "RX-B"}); err == nil {
		t.Error("EncodeNode wrote a bad node name")
	}
}

func TestDecodeNodeRules(t *testing.T) {
	v1, err := Encode(sampleComplete())
	if err != nil {
		t.Fatal(err)
	}
	node := nodeComplete(t)
	readyNode, err := EncodeNode(sampleReadyForNode(), NodeFields{Node: "rx-a"})
	if err != nil {
		t.Fatal(err)
	}
	del := func(doc []byte, key string) []byte {
		var keep []string
		for _, l := range strings.Split(string(doc), "\n") {
			if !strings.HasPrefix(l, `  "`+key+`"`) {
				keep = append(keep, l)
			}
		}
		s := strings.Join(keep, "\n")
		return []byte(strings.Replace(s, ",\n}", "\n}", 1))
	}
	withKeys := bytes.Replace(v1, []byte("\"rf_tx\": 0\n}"), []byte("\"rf_tx\": 0,\n  \"node\": \"rx-a\",\n  \"sigmf_meta_sha512\": null\n}"), 1)
	for _, tc := range []struct {
		name string
		doc  []byte
		opts Options
		want []problem
	}{
		{"v1 where v1 is expected", v1, Options{}, nil},
		{"v1 for any", v1, Options{Node: AnyNode}, nil},
		{"v1 where a node result is required", v1, Options{Node: "rx-a"}, []problem{{"schema_version", ruleNode}}},
		{"v2 where v1 is expected", node, Options{}, []problem{{"schema_version", ruleValue}}},
		{"v2 from another node", node, Options{Node: "rx-a"}, []problem{{"node", ruleNode}}},
		{"v1 with node keys", withKeys, Options{Node: AnyNode}, []problem{{"node", ruleUnknownKey}, {"sigmf_meta_sha512", ruleUnknownKey}}},
		{"v2 without node", del(node, "node"), Options{Node: AnyNode}, []problem{{"node", ruleMissing}}},
		{"v2 without sigmf", del(node, "sigmf_meta_sha512"), Options{Node: "rx-b"}, []problem{{"sigmf_meta_sha512", ruleMissing}}},
		{"bad node name", withValue(t, node, "node", `"rx_b"`), Options{Node: AnyNode}, []problem{{"node", ruleValue}}},
		{"node not a string", withValue(t, node, "node", `1`), Options{Node: AnyNode}, []problem{{"node", ruleValue}}},
		{"short sha512", withValue(t, node, "sigmf_meta_sha512", `"abcd"`), Options{Node: AnyNode}, []problem{{"sigmf_meta_sha512", ruleValue}}},
		{"COMPLETE without metadata", withValue(t, node, "sigmf_meta_sha512", `null`), Options{Node: "rx-b"}, nil},
		{"READY", readyNode, Options{Node: "rx-a"}, nil},
		{"READY with a digest", withValue(t, readyNode, "sigmf_meta_sha512", `"`+strings.Repeat("0", 128)+`"`), Options{Node: "rx-a"},
			[]problem{{"sigmf_meta_sha512", ruleState}}},
		{"case variant", bytes.Replace(node, []byte(`"node"`), []byte(`"Node"`), 1), Options{Node: AnyNode},
			[]problem{{"Node", ruleUnknownKey}, {"node", ruleMissing}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.doc, tc.opts)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			mustInvalid(t, err, tc.want...)
		})
	}
}

// The JSON Schema says the same of node results as DecodeNode with AnyNode.
func TestSchemaAgreesOnNodeResults(t *testing.T) {
	sch := compileSchema(t)
	node := nodeComplete(t)
	readyNode, err := EncodeNode(sampleReadyForNode(), NodeFields{Node: "rx-a"})
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := Encode(sampleComplete())
	for name, doc := range map[string][]byte{
		"complete":           node,
		"ready":              readyNode,
		"ready with digest":  withValue(t, readyNode, "sigmf_meta_sha512", `"`+strings.Repeat("0", 128)+`"`),
		"bad name":           withValue(t, node, "node", `"rx_b"`),
		"short sha512":       withValue(t, node, "sigmf_meta_sha512", `"abcd"`),
		"v1 with a node key": bytes.Replace(v1, []byte("\"rf_tx\": 0\n}"), []byte("\"rf_tx\": 0,\n  \"node\": \"rx-a\"\n}"), 1),
		"v2 without keys":    bytes.Replace(v1, []byte(`"schema_version": 1,`), []byte(`"schema_version": 2,`), 1),
		"v3":                 withValue(t, node, "schema_version", `3`),
	} {
		t.Run(name, func(t *testing.T) {
			_, goErr := Decode(doc, Options{Node: AnyNode})
			ok, schErr := schemaAccepts(sch, doc)
			if (goErr == nil) != ok {
				t.Errorf("disagree: Go err=%v\nschema err=%v", goErr, schErr)
			}
		})
	}
}

func sampleReadyForNode() *Result {
	r := sampleComplete()
	r.State = StateReady
	r.RXReadyForTX, r.ProcessAlive, r.FileGrowing, r.CommonClockVerified = true, true, true, true
	r.CaptureEndedAt, r.CaptureExitCode, r.CaptureSizeBytes, r.CaptureDurationS, r.CaptureSHA256 = nil, nil, nil, nil, nil
	r.Overruns, r.DroppedFrames, r.ClkinAfter, r.RFTXObserved = nil, nil, nil, nil
	return r
}
