package publish_test

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rfhandoff/internal/gittest"
	"rfhandoff/internal/publishtest"
)

// addHistory appends n commits to branch in the fixture's bare remote,
// each changing the two result files, as a result branch looks after n
// publishes, and returns the new tip. It writes the objects as one pack
// with its index (git's formats, gitformat-pack(5)), which takes well
// under a second where n runs of git commit, or n×7 loose object files on
// a busy disk, take minutes; then it moves the branch with git update-ref.
func addHistory(tb testing.TB, f *publishtest.Fixture, branch string, n int) string {
	tb.Helper()
	parent := gittest.Tip(tb, f.Remote, branch)
	var p packWriter
	readme := p.add(objBlob, []byte("RX results\n"))
	tip := parent
	for i := range n {
		json := p.add(objBlob, fmt.Appendf(nil, "{\n  \"schema_version\": 1,\n  \"seq\": %d\n}\n", i))
		md := p.add(objBlob, fmt.Appendf(nil, "# RX result %d\n", i))
		results := p.add(objTree, treeBody(entry{"100644", "RX_RESULT.json", json}, entry{"100644", "RX_RESULT.md", md}))
		handoff := p.add(objTree, treeBody(entry{"40000", "results", results}))
		docs := p.add(objTree, treeBody(entry{"40000", "handoff", handoff}))
		root := p.add(objTree, treeBody(entry{"100644", "README.md", readme}, entry{"40000", "docs", docs}))
		when := 1_700_000_000 + i
		tip = p.add(objCommit, fmt.Appendf(nil, "tree %s\nparent %s\nauthor rx <rx@example.invalid> %d +0000\ncommitter rx <rx@example.invalid> %d +0000\n\nrx result: HISTORY_%05d\n",
			root, tip, when, when, i))
	}
	p.write(tb, filepath.Join(f.Remote.Dir, "objects", "pack"))
	gittest.Git(tb, f.Runner, f.Remote.Dir, "update-ref", "--end-of-options", "refs/heads/"+branch, tip, parent)
	count := strings.Count(gittest.Git(tb, f.Runner, f.Remote.Dir, "log", "--format=%H", tip), "\n")
	if count != n+1 {
		tb.Fatalf("generated history has %d commits, want %d", count, n+1)
	}
	return tip
}

type entry struct{ mode, name, id string }

// treeBody encodes tree entries, which the caller gives in git's order.
func treeBody(entries ...entry) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		raw, _ := hex.DecodeString(e.id)
		b.WriteString(e.mode + " " + e.name + "\x00")
		b.Write(raw)
	}
	return b.Bytes()
}

// Pack object types.
const (
	objCommit = 1
	objTree   = 2
	objBlob   = 3
)

var typeNames = map[int]string{objCommit: "commit", objTree: "tree", objBlob: "blob"}

type packed struct {
	id     [20]byte
	offset uint32
	crc    uint32
}

// packWriter builds a version 2 pack of undeltified objects.
type packWriter struct {
	body bytes.Buffer // the objects, after the 12-byte header
	objs []packed
	seen map[[20]byte]bool
	z    *zlib.Writer // reused: a new one per object costs ~1 MB of allocation
}

func (p *packWriter) add(typ int, data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", typeNames[typ], len(data))
	h.Write(data)
	var id [20]byte
	copy(id[:], h.Sum(nil))
	if p.seen == nil {
		p.seen = map[[20]byte]bool{}
	}
	if p.seen[id] {
		return hex.EncodeToString(id[:])
	}
	p.seen[id] = true
	var obj bytes.Buffer
	// Header: type and size, 4 bits of size first, then 7 per byte.
	size := len(data)
	c := byte(typ<<4) | byte(size&0x0f)
	size >>= 4
	for size > 0 {
		obj.WriteByte(c | 0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	obj.WriteByte(c)
	if p.z == nil {
		p.z, _ = zlib.NewWriterLevel(&obj, zlib.BestSpeed)
	} else {
		p.z.Reset(&obj)
	}
	p.z.Write(data)
	p.z.Close()
	p.objs = append(p.objs, packed{id: id, offset: uint32(12 + p.body.Len()), crc: crc32.ChecksumIEEE(obj.Bytes())})
	p.body.Write(obj.Bytes())
	return hex.EncodeToString(id[:])
}

// write stores pack-<sum>.pack and its .idx (version 2) in dir.
func (p *packWriter) write(tb testing.TB, dir string) {
	tb.Helper()
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(p.objs)))
	pack.Write(p.body.Bytes())
	sum := sha1.Sum(pack.Bytes())
	pack.Write(sum[:])

	objs := slices.Clone(p.objs)
	slices.SortFunc(objs, func(a, b packed) int { return bytes.Compare(a.id[:], b.id[:]) })
	var idx bytes.Buffer
	idx.Write([]byte{0xff, 't', 'O', 'c'})
	binary.Write(&idx, binary.BigEndian, uint32(2))
	var fan [256]uint32
	for _, o := range objs {
		fan[o.id[0]]++
	}
	total := uint32(0)
	for i := range fan {
		total += fan[i]
		binary.Write(&idx, binary.BigEndian, total)
	}
	for _, o := range objs {
		idx.Write(o.id[:])
	}
	for _, o := range objs {
		binary.Write(&idx, binary.BigEndian, o.crc)
	}
	for _, o := range objs {
		binary.Write(&idx, binary.BigEndian, o.offset)
	}
	idx.Write(sum[:])
	isum := sha1.Sum(idx.Bytes())
	idx.Write(isum[:])

	base := filepath.Join(dir, "pack-"+hex.EncodeToString(sum[:]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	// The index last: git looks for packs through their .idx.
	if err := os.WriteFile(base+".pack", pack.Bytes(), 0o444); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idx.Bytes(), 0o444); err != nil {
		tb.Fatal(err)
	}
}

// TestPublishOnLongHistory publishes onto a result branch with 5,000
// commits of history: the shallow clone fetches only the tip, so this is
// as correct as on a fresh branch (the benchmark measures the time).
func TestPublishOnLongHistory(t *testing.T) {
	t.Parallel()
	f := publishtest.New(t, publishtest.Options{})
	tip := addHistory(t, f, f.Policy.Repo.ResultBranch, 5000)
	if got := bareGit(t, f, "cat-file", "blob", tip+":docs/handoff/results/RX_RESULT.md"); got != "# RX result 4999\n" {
		t.Fatalf("generated tip holds %q", got)
	}
	out := mustPublish(t, f, f.Ready())
	if parent := strings.TrimSpace(bareGit(t, f, "rev-parse", out.Commit+"^")); parent != tip {
		t.Errorf("parent %s, want the history's tip %s", parent, tip)
	}
}
