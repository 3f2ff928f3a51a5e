package private

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// posixACL is the system.posix_acl_access value of an access list giving
// its owner perm, the named user strangerID userPerm, the owning group
// and others read, with a mask of mask (the kernel's xattr format: a
// version, then tag, permission, id entries sorted by tag).
func posixACL(perm, userPerm, mask uint16) []byte {
	const undefined = 0xffffffff
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{0x01, perm, undefined}, {0x02, userPerm, strangerID}, {0x04, 4, undefined}, {0x10, mask, undefined}, {0x20, 4, undefined}} {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	return b
}

// An access list (setfacl) naming another account with write, under a
// mask that lets it write, makes a file, or a directory above one, one
// that account can change, whatever its owning group: refused, naming the
// list. With the mask taken down (chmod g-w, the fix named) it passes.
func TestCheckPrivateRefusesAnAccessListWriter(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "policy.toml")
	write(t, f, 0o640)
	if err := unix.Setxattr(f, "system.posix_acl_access", posixACL(6, 6, 6), 0); err != nil {
		t.Skipf("no POSIX access lists on this file system: %v", err)
	}
	wantRefused(t, "a named writer in the access list", Check(f), f, "writable by the accounts and groups its access list names (getfacl "+f+")", "`chmod go-w "+f+"`")
	if err := os.Chmod(f, 0o640); err != nil { // the mask loses w
		t.Fatal(err)
	}
	if err := Check(f); err != nil {
		t.Errorf("the access list's mask without write: %v", err)
	}

	sub := filepath.Join(dir, "state")
	mkdirT(t, sub, 0o750)
	inside := filepath.Join(sub, "rx_agent_state.json")
	write(t, inside, 0o600)
	if err := unix.Setxattr(sub, "system.posix_acl_access", posixACL(7, 7, 7), 0); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "below a directory whose access list names a writer", Check(inside), inside,
		"the directory "+sub+" above it is writable by the accounts and groups its access list names")
}
