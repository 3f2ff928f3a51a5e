package gitcli

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Object is a git object to write: its type and the exact bytes git
// hashes after the "<type> <size>\0" header.
type Object struct {
	Type string
	Data []byte
}

func (o Object) id() string {
	h := sha1.New()
	h.Write([]byte(o.Type + " " + strconv.Itoa(len(o.Data)) + "\x00"))
	h.Write(o.Data)
	return hex.EncodeToString(h.Sum(nil))
}

func BlobID(data []byte) string { return Object{Type: "blob", Data: data}.id() }

// WriteObjects stores objs with one git unpack-objects --strict: the bytes
// as given (no filter applies to a raw object), a malformed tree refused.
func (c *Client) WriteObjects(ctx context.Context, objs []Object) error {
	pack, err := encodePack(objs)
	if err != nil {
		return err
	}
	return c.do(ctx, "unpack-objects", []string{"unpack-objects", "-q", "--strict"}, call{stdin: bytes.NewReader(pack)})
}

var packTypes = map[string]byte{"commit": 1, "tree": 2, "blob": 3}

func encodePack(objs []Object) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("PACK")
	_ = binary.Write(&b, binary.BigEndian, uint32(2))
	_ = binary.Write(&b, binary.BigEndian, uint32(len(objs)))
	// One compressor, reset: a new one clears a megabyte of tables. Stored:
	// unpack-objects recompresses each object at git's own level.
	z, err := zlib.NewWriterLevel(&b, zlib.NoCompression)
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		t, ok := packTypes[o.Type]
		if !ok {
			return nil, invalid("object type", o.Type, "must be blob, tree or commit")
		}
		// 3 bits of type, the size 4 bits first then 7 per further byte,
		// the high bit saying "more follows".
		size := uint64(len(o.Data))
		c := t<<4 | byte(size&0x0f)
		size >>= 4
		for size > 0 {
			b.WriteByte(c | 0x80)
			c = byte(size & 0x7f)
			size >>= 7
		}
		b.WriteByte(c)
		z.Reset(&b)
		if _, err := z.Write(o.Data); err != nil {
			return nil, err
		}
		if err := z.Close(); err != nil {
			return nil, err
		}
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes(), nil
}

// treeObject encodes entries (names, not paths) as a tree object in git's
// order: by name bytes, a directory compared as if its name ended in '/'.
func treeObject(entries []TreeEntry) (Object, error) {
	sorted := slices.Clone(entries)
	key := func(e TreeEntry) string {
		if e.Mode == ModeTree {
			return e.Path + "/"
		}
		return e.Path
	}
	slices.SortFunc(sorted, func(a, b TreeEntry) int { return strings.Compare(key(a), key(b)) })
	var b bytes.Buffer
	for i, e := range sorted {
		if e.Path == "" || strings.ContainsAny(e.Path, "/\x00") || e.Path == "." || e.Path == ".." {
			return Object{}, invalid("tree entry name", e.Path, "must be one path component")
		}
		if i > 0 && sorted[i-1].Path == e.Path {
			return Object{}, invalid("tree entry name", e.Path, "appears twice")
		}
		raw, err := hex.DecodeString(e.ID)
		if err != nil || len(raw) != sha1.Size {
			return Object{}, invalid("object ID", e.ID, "must be 40 hex digits")
		}
		// Trees store the directory mode without its leading zero.
		b.WriteString(strings.TrimPrefix(string(e.Mode), "0") + " " + e.Path + "\x00")
		b.Write(raw)
	}
	return Object{Type: "tree", Data: b.Bytes()}, nil
}

// ReplaceInDir replaces, in the tree whose levels are listed (DirLevels),
// the regular files under dir named in blobs, creating dir's missing
// components and keeping every other entry. It returns the new root tree's
// ID and the objects to write: blobs, then trees from dir up.
func ReplaceInDir(levels []TreeEntry, dir string, blobs map[string][]byte) (string, []Object, error) {
	comps := []string{"."}
	if dir != "" && dir != "." {
		for i, c := range strings.Split(dir, "/") {
			comps = append(comps, path.Join(comps[i], c))
		}
	}
	byParent := map[string][]TreeEntry{}
	for _, e := range levels {
		p := path.Dir(e.Path)
		e.Path = path.Base(e.Path)
		byParent[p] = append(byParent[p], e)
	}
	var objs []Object
	replace := map[string]TreeEntry{}
	for _, n := range slices.Sorted(maps.Keys(blobs)) {
		o := Object{Type: "blob", Data: blobs[n]}
		objs = append(objs, o)
		replace[n] = TreeEntry{Mode: ModeFile, Type: "blob", ID: o.id(), Path: n}
	}
	var id string
	for i := len(comps) - 1; i >= 0; i-- {
		var entries []TreeEntry
		for _, e := range byParent[comps[i]] {
			if _, ok := replace[e.Path]; ok {
				continue
			}
			entries = append(entries, e)
		}
		for _, n := range slices.Sorted(maps.Keys(replace)) {
			entries = append(entries, replace[n])
		}
		t, err := treeObject(entries)
		if err != nil {
			return "", nil, err
		}
		objs = append(objs, t)
		id = t.id()
		if i > 0 {
			name := path.Base(comps[i])
			for _, e := range byParent[comps[i-1]] {
				if e.Path == name && e.Mode != ModeTree {
					return "", nil, fmt.Errorf("%s is a %s, not a directory", comps[i], e.Mode.kind())
				}
			}
			replace = map[string]TreeEntry{name: {Mode: ModeTree, Type: "tree", ID: id, Path: name}}
		}
	}
	return id, objs, nil
}
