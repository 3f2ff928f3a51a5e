package gitcli

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const (
	histPath = "docs/handoff/NEXT_RX_TASK.md"
	blobA    = "8c1384d825dbbe41309b7dc18ee7991a9085c46e"
	blobB    = "c694117fd4e76c22ae04348c15861413019aa03b"
	blobC    = "626799f0f85326a8c1fc522db584e86cdfccd51f"
)

func rawLine(oldMode, newMode, oldID, newID, status, path string) string {
	return ":" + oldMode + " " + newMode + " " + oldID + " " + newID + " " + status + "\t" + path + "\n"
}

func TestParseLogRaw(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []FileVersion
		wantErr bool
	}{
		{"empty history", "", nil, false},
		{"added then modified, newest first",
			"commit " + idB + "\n" + rawLine("100644", "100644", blobA, blobB, "M", histPath) + "\n" +
				"commit " + idA + "\n" + rawLine("000000", "100644", zeroID, blobA, "A", histPath),
			[]FileVersion{{Commit: idB, Blob: blobB}, {Commit: idA, Blob: blobA}}, false},
		// -m lists a merge once per parent; the same content is one version,
		// named by the oldest commit listed.
		{"merge listed per parent",
			"commit " + idB + "\n" + rawLine("100644", "100644", blobA, blobC, "M", histPath) + "\n" +
				"commit " + idB + "\n" + rawLine("100644", "100644", blobB, blobC, "M", histPath) + "\n" +
				"commit " + idA + "\n" + rawLine("000000", "100644", zeroID, blobC, "A", histPath),
			[]FileVersion{{Commit: idA, Blob: blobC}}, false},
		{"deleted, symlink and another path skipped",
			"commit " + idB + "\n" + rawLine("100644", "000000", blobA, zeroID, "D", histPath) + "\n" +
				"commit " + idA + "\n" + rawLine("000000", "120000", zeroID, blobB, "A", histPath) +
				rawLine("000000", "100644", zeroID, blobC, "A", histPath+"/inner"),
			nil, false},
		{"executable counts", "commit " + idA + "\n" + rawLine("000000", "100755", zeroID, blobA, "A", histPath),
			[]FileVersion{{Commit: idA, Blob: blobA}}, false},
		{"blank lines of log.follow output", "commit " + idA + "\n\n" + rawLine("000000", "100644", zeroID, blobA, "A", histPath),
			[]FileVersion{{Commit: idA, Blob: blobA}}, false},
		// -t lists the directory's tree before the file: it is the tree a
		// partial clone fetches for that version.
		{"directory tree from -t",
			"commit " + idB + " " + blobC + "\n" + rawLine("040000", "040000", blobA, blobB, "M", "docs/handoff") +
				rawLine("100644", "100644", blobA, blobC, "M", histPath),
			[]FileVersion{{Commit: idB, Blob: blobC, Tree: blobB}}, false},
		{"bad root tree", "commit " + idA + " 1234\n", nil, true},
		{"abbreviated id", "commit " + idA + "\n" + rawLine("000000", "100644", "0000000", "8c1384d", "A", histPath), nil, true},
		{"short commit", "commit 65a0f9b\n", nil, true},
		{"diff before commit", rawLine("000000", "100644", zeroID, blobA, "A", histPath), nil, true},
		{"signature text", "commit " + idA + "\ngpg: Signature made Tue\n", nil, true},
		{"no tab", "commit " + idA + "\n:000000 100644 " + zeroID + " " + blobA + " A " + histPath + "\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLogRaw([]byte(tt.out), histPath)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// A file at the top: its directory's tree is the commit's root tree.
func TestParseLogRawRootFile(t *testing.T) {
	got, err := parseLogRaw([]byte("commit "+idA+" "+blobB+"\n"+rawLine("000000", "100644", zeroID, blobA, "A", "ROOT.md")), "ROOT.md")
	want := []FileVersion{{Commit: idA, Blob: blobA, Tree: blobB}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

func TestParseBatchCheck(t *testing.T) {
	ids := []string{blobA, blobB}
	tests := []struct {
		name    string
		out     string
		want    []int64
		wantErr bool
	}{
		{"two", blobA + " blob 12\n" + blobB + " blob 0\n", []int64{12, 0}, false},
		{"missing", blobA + " blob 12\n" + blobB + " missing\n", nil, true},
		{"out of order", blobB + " blob 12\n" + blobA + " blob 0\n", nil, true},
		{"a tree", blobA + " tree 12\n" + blobB + " blob 0\n", nil, true},
		{"too few", blobA + " blob 12\n", nil, true},
		{"none", "", nil, true},
		{"negative", blobA + " blob -1\n" + blobB + " blob 0\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseBatchCheck([]byte(tt.out), ids)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// fakeHeader is content that looks like the next object's header.
const fakeHeader = blobA + " blob 1\nx"

func TestParseBatch(t *testing.T) {
	ids := []string{blobA, blobB}
	tests := []struct {
		name    string
		out     string
		want    map[string][]byte
		wantErr bool
	}{
		{"two, one holding a newline and a fake header",
			blobA + " blob 3\nab\n\n" + blobB + " blob " + strconv.Itoa(len(fakeHeader)) + "\n" + fakeHeader + "\n",
			map[string][]byte{blobA: []byte("ab\n"), blobB: []byte(fakeHeader)}, false},
		{"empty blob", blobA + " blob 0\n\n" + blobB + " blob 1\nx\n", map[string][]byte{blobA: {}, blobB: []byte("x")}, false},
		{"truncated", blobA + " blob 3\nab\n\n" + blobB + " blob 5\nxy", nil, true},
		{"no newline after content", blobA + " blob 2\nab" + blobB + " blob 1\nx\n", nil, true},
		{"trailing bytes", blobA + " blob 1\na\n" + blobB + " blob 1\nx\nmore", nil, true},
		{"missing", blobA + " missing\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseBatch([]byte(tt.out), ids, "blob")
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHistoryArgsEndOptions(t *testing.T) {
	args := historyArgs(idA, "", histPath, 0)
	joined := strings.Join(args, " ")
	if !strings.HasSuffix(joined, "--end-of-options "+idA+" -- "+histPath) {
		t.Errorf("data not after --end-of-options and --: %q", joined)
	}
}
