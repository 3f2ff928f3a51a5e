package gittest

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// entry is one path of a flat tree listing: its mode and object ID.
type entry struct{ mode, oid string }

// WriteLoose stores data as a loose object of kind in the repository whose
// git directory is gitDir and returns its ID: what `git hash-object -w
// --literally` does, without starting git. Starting a process costs far
// more than the object (about 10 ms of CPU a git on a small VM), and the
// fixtures write thousands.
func WriteLoose(t testing.TB, gitDir, kind string, data []byte) string {
	t.Helper()
	header := fmt.Sprintf("%s %d\x00", kind, len(data))
	sum := sha1.New()
	sum.Write([]byte(header))
	sum.Write(data)
	id := hex.EncodeToString(sum.Sum(nil))
	p := filepath.Join(gitDir, "objects", id[:2], id[2:])
	if _, err := os.Stat(p); err == nil {
		return id
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte(header))
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	// As git does: a temporary file renamed into place, read-only.
	f, err := os.CreateTemp(filepath.Dir(p), "tmp_obj_")
	if err != nil {
		t.Fatal(err)
	}
	_, werr := f.Write(z.Bytes())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o444)
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		if _, err := os.Stat(p); err != nil { // a concurrent writer of the same object is fine
			t.Fatal(werr)
		}
	}
	return id
}

// seedCommit writes, in the bare repository, a commit on top of parent
// ("" for a root commit) whose tree is parent's with files applied (see
// Seed), and returns its ID. Only reading parent's tree starts git.
func seedCommit(t testing.TB, rem *Remote, parent, message string, files map[string]string) string {
	t.Helper()
	entries := map[string]entry{}
	if parent != "" {
		out := Git(t, rem.R, rem.Dir, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", parent)
		for _, line := range strings.Split(out, "\x00") {
			meta, name, ok := strings.Cut(line, "\t")
			if f := strings.Fields(meta); ok && len(f) == 3 {
				entries[name] = entry{f[0], f[2]}
			}
		}
	}
	for name, v := range files {
		switch target, link := strings.CutPrefix(v, SymlinkPrefix); {
		case v == "":
			delete(entries, name)
		case link:
			entries[name] = entry{"120000", WriteLoose(t, rem.Dir, "blob", []byte(target))}
		default:
			entries[name] = entry{"100644", WriteLoose(t, rem.Dir, "blob", []byte(v))}
		}
	}
	tree := writeTree(t, rem.Dir, entries)
	now := time.Now().Unix()
	ident := fmt.Sprintf("%s <%s> %d +0000", UserName, UserEmail, now)
	var c strings.Builder
	c.WriteString("tree " + tree + "\n")
	if parent != "" {
		c.WriteString("parent " + parent + "\n")
	}
	c.WriteString("author " + ident + "\ncommitter " + ident + "\n\n" + message + "\n")
	return WriteLoose(t, rem.Dir, "commit", []byte(c.String()))
}

// writeTree writes the trees of a flat listing (path → entry) and returns
// the root tree's ID.
func writeTree(t testing.TB, gitDir string, entries map[string]entry) string {
	t.Helper()
	here := map[string]entry{}
	sub := map[string]map[string]entry{}
	for name, e := range entries {
		if dir, rest, ok := strings.Cut(name, "/"); ok {
			if sub[dir] == nil {
				sub[dir] = map[string]entry{}
			}
			sub[dir][rest] = e
		} else {
			here[name] = e
		}
	}
	for dir, es := range sub {
		here[dir] = entry{"40000", writeTree(t, gitDir, es)}
	}
	// git orders a tree's entries by name, a directory's as if it ended in "/".
	key := func(name string) string {
		if here[name].mode == "40000" {
			return name + "/"
		}
		return name
	}
	names := make([]string, 0, len(here))
	for name := range here {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return key(names[i]) < key(names[j]) })
	var raw []byte
	for _, name := range names {
		id, err := hex.DecodeString(here[name].oid)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, strings.TrimPrefix(here[name].mode, "0")+" "+name+"\x00"...)
		raw = append(raw, id...)
	}
	return WriteLoose(t, gitDir, "tree", raw)
}
