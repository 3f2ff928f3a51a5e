package exec

// hasDrivePrefix: git.exe reads "C:/lab/rf.git" as a local path
// (has_dos_drive_prefix), not as the scp-like host "C".
func hasDrivePrefix(url string) bool {
	return len(url) >= 2 && url[1] == ':' && ('a' <= url[0]|0x20 && url[0]|0x20 <= 'z')
}
