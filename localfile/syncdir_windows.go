package localfile

// SyncDir makes a rename or a new link in dir survive a power loss. It
// does nothing here: Windows cannot open a directory for syncing, and
// NTFS journals the rename itself (MoveFileEx) as metadata.
func SyncDir(string) error { return nil }
