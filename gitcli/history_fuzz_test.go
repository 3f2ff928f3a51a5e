package gitcli

import (
	"strconv"
	"testing"
)

func FuzzParseLogRaw(f *testing.F) {
	f.Add([]byte("commit " + idB + "\n" + rawLine("100644", "100644", blobA, blobB, "M", histPath) + "\ncommit " + idA + "\n" +
		rawLine("000000", "100644", zeroID, blobA, "A", histPath)))
	f.Add([]byte("commit " + idA + "\n" + rawLine("100644", "000000", blobA, zeroID, "D", histPath)))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		versions, err := parseLogRaw(b, histPath)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, v := range versions {
			if ValidObjectID(v.Commit) != nil || ValidObjectID(v.Blob) != nil || seen[v.Blob] {
				t.Fatalf("accepted bad or repeated version %+v", v)
			}
			seen[v.Blob] = true
		}
	})
}

func FuzzParseBatch(f *testing.F) {
	f.Add([]byte(blobA + " blob 3\nab\n\n" + blobB + " blob 1\nx\n"))
	f.Add([]byte(blobA + " blob 0\n\n" + blobB + " missing\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ids := []string{blobA, blobB}
		contents, err := parseBatch(b, ids, "blob")
		if err != nil {
			return
		}
		// Accepted output is exactly the two headers and contents.
		n := 0
		for _, id := range ids {
			d, ok := contents[id]
			if !ok {
				t.Fatalf("accepted output without %s", id)
			}
			n += len(id) + len(" blob ") + len(strconv.Itoa(len(d))) + 1 + len(d) + 1
		}
		if n > len(b) {
			t.Fatalf("contents longer than the output: %d > %d", n, len(b))
		}
	})
}
