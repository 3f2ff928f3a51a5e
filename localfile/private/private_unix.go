//go:build unix

package private

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"rfhandoff/localfile"
	"strconv"
	"strings"
	"syscall"
)

func openNoFollow(path string, _ bool) (*os.File, error) { return localfile.OpenNoFollow(path) }

func mkdirOwn(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	return os.Mkdir(dir, 0o700)
}

func judgeOpened(path string, _ *os.File, st fs.FileInfo) []error {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return []error{fmt.Errorf("%s: cannot tell its owner on this system", path)}
	}
	var problems []error
	if !trustedOwner(sys.Uid) {
		what := "file"
		if st.IsDir() {
			what = "directory"
		}
		problems = append(problems, fmt.Errorf("owned by %s, not by you (%s): another account made or replaced this %s, so what it holds cannot be trusted; "+
			"look at it, then remove it — or, if you vouch for it, `chown %s %s`", account(sys.Uid), account(uint32(os.Geteuid())), what, me(), path))
	}
	if who := writers(path, st.Mode(), sys); who != "" {
		problems = append(problems, fmt.Errorf("writable by %s (mode %04o): another account could change it; `chmod go-w %s`", who, st.Mode().Perm(), path))
	}
	return problems
}

// judgeAbove judges every directory above path, as it is named and as it
// resolves (a symlinked directory where it points too). A sticky one lets
// nobody else rename or remove what this account owns in it.
func judgeAbove(path string) []error {
	var problems []error
	seen := map[string]bool{}
	judge := func(dir string, st fs.FileInfo) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !ok {
			return
		}
		if !trustedOwner(sys.Uid) {
			problems = append(problems, fmt.Errorf("the directory %s above it is owned by %s: that account could rename what is below it away and put its own in its place; "+
				"keep it in a directory that belongs to you or root", dir, account(sys.Uid)))
			return
		}
		if st.Mode()&fs.ModeSticky != 0 {
			return
		}
		if who := writers(dir, st.Mode(), sys); who != "" {
			problems = append(problems, fmt.Errorf("the directory %s above it is writable by %s (mode %04o): another account could rename what is below it away and put its own in its place; "+
				"`chmod go-w %s`, or keep it in a directory only you can write", dir, who, st.Mode().Perm(), dir))
		}
	}
	parent := filepath.Dir(path)
	for _, dir := range ancestors(parent) {
		if st, err := os.Stat(dir); err == nil {
			judge(dir, st)
		}
	}
	if real, err := filepath.EvalSymlinks(parent); err == nil {
		for _, dir := range ancestors(real) {
			if st, err := os.Lstat(dir); err == nil {
				judge(dir, st)
			}
		}
	}
	return problems
}

// ancestors lists dir and every directory above it, the root first.
func ancestors(dir string) []string {
	out := []string{dir}
	for up := filepath.Dir(dir); up != dir; up = filepath.Dir(up) {
		out = append([]string{up}, out...)
		dir = up
	}
	return out
}

// trustedOwner: this account or root (who can change anything anyway).
func trustedOwner(uid uint32) bool { return uid == uint32(os.Geteuid()) || uid == 0 }

// writers names who besides the owner may write path, or "": the owner's
// private group (Debian's umask 002) is nobody, as Debian's OpenSSH counts it.
func writers(path string, m fs.FileMode, sys *syscall.Stat_t) string {
	switch {
	case m&0o002 != 0:
		return "every account"
	case m&0o020 != 0 && extendedACL(path):
		return "the accounts and groups its access list names (getfacl " + path + ")"
	case m&0o020 != 0 && !privateGroup(sys.Gid, sys.Uid):
		return "the group " + groupName(sys.Gid)
	}
	return ""
}

// privateGroup reports whether gid's only member, by primary group or
// listed, is uid. It reads /etc/passwd and /etc/group only: a group it
// cannot account for there is not private.
func privateGroup(gid, uid uint32) bool {
	uidS, gidS := strconv.FormatUint(uint64(uid), 10), strconv.FormatUint(uint64(gid), 10)
	name, err := user.LookupId(uidS)
	if err != nil {
		return false
	}
	members := 0
	okPasswd := scanColonFile("/etc/passwd", func(f []string) bool {
		if len(f) < 4 || f[3] != gidS {
			return true
		}
		members++
		return f[2] == uidS
	})
	if !okPasswd {
		return false
	}
	found := false
	okGroup := scanColonFile("/etc/group", func(f []string) bool {
		if len(f) < 4 || f[2] != gidS {
			return true
		}
		found = true
		for _, m := range strings.Split(f[3], ",") {
			if m == "" {
				continue
			}
			if m != name.Username {
				return false
			}
			members = max(members, 1)
		}
		return true
	})
	return okGroup && found && members == 1
}

// scanColonFile calls each for the fields of every line of an /etc file
// while it returns true; false when it stops or the file is unreadable.
func scanColonFile(path string, each func([]string) bool) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 16<<20))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !each(strings.Split(line, ":")) {
			return false
		}
	}
	return sc.Err() == nil
}

// account names a uid for a message: "uid 1001 (agent)".
func account(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil {
		return fmt.Sprintf("uid %s (%s)", id, u.Username)
	}
	return "uid " + id
}

func me() string {
	id := strconv.Itoa(os.Geteuid())
	if u, err := user.LookupId(id); err == nil {
		return u.Username
	}
	return id
}

func groupName(gid uint32) string {
	id := strconv.FormatUint(uint64(gid), 10)
	if g, err := user.LookupGroupId(id); err == nil {
		return fmt.Sprintf("%s (gid %s)", g.Name, id)
	}
	return "gid " + id
}
