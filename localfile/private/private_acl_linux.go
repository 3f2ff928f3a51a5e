package private

import "golang.org/x/sys/unix"

// extendedACL reports whether path carries a POSIX access ACL beyond its
// mode bits: its group bits are then the mask of what every user and
// group it names may hold.
func extendedACL(path string) bool {
	n, err := unix.Lgetxattr(path, "system.posix_acl_access", nil)
	return err == nil && n > 0
}
