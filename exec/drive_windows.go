package exec

// hasDrivePrefix reports whether url starts with a drive letter and a
// colon ("C:\lab\rf.git", "C:/lab/rf.git"): git.exe reads that as a local
// path (has_dos_drive_prefix in git's url_is_local_not_ssh), not as the
// scp-like host "C".
func hasDrivePrefix(url string) bool {
	return len(url) >= 2 && url[1] == ':' && ('a' <= url[0]|0x20 && url[0]|0x20 <= 'z')
}
