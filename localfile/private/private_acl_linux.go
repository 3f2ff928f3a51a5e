package private

import "golang.org/x/sys/unix"

// extendedACL reports whether path has a POSIX ACL beyond its mode: its
// group bits are then the mask of what every user and group it names holds.
func extendedACL(path string) bool {
	n, err := unix.Lgetxattr(path, "system.posix_acl_access", nil)
	return err == nil && n > 0
}
