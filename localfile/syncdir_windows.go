package localfile

// SyncDir does nothing: Windows cannot open a directory for syncing, and
// NTFS journals the rename as metadata.
func SyncDir(string) error { return nil }
