package gitcli

import (
	"bytes"
	"testing"
)

// BenchmarkEncodePack is the pack of one publish: the two result files
// and the four trees above them.
func BenchmarkEncodePack(b *testing.B) {
	objs := []Object{
		{Type: "blob", Data: bytes.Repeat([]byte("{\"k\": 1}\n"), 300)},
		{Type: "blob", Data: bytes.Repeat([]byte("# md\n"), 200)},
	}
	for range 4 {
		objs = append(objs, Object{Type: "tree", Data: bytes.Repeat([]byte("100644 RX_RESULT.json\x0012345678901234567890"), 3)})
	}
	for b.Loop() {
		if _, err := encodePack(objs); err != nil {
			b.Fatal(err)
		}
	}
}
