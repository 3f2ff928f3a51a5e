package private

import "golang.org/x/sys/unix"

// extendedACL reports whether path carries a POSIX access ACL beyond its
// mode bits (setfacl): its group bits are then the ACL's mask, and every
// user and group the ACL names may hold what the mask allows. The kernel
// keeps no such attribute for an ACL that only restates the mode.
func extendedACL(path string) bool {
	n, err := unix.Lgetxattr(path, "system.posix_acl_access", nil)
	return err == nil && n > 0
}
