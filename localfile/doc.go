// Package localfile holds the file primitives every side uses on its own
// disk (PROTOCOL#rx-state, PROTOCOL#local-files): ReadRegular (the one
// bounded read of a local file) and ReadJudged (the same, with a check of
// the opened file before a byte is read); OpenNoFollow; WriteFileAtomic,
// CreateTemp, WriteSynced, CleanTemps and SyncDir (crash-safe writes: temp
// file, fsync, rename, fsync of the directory); Acquire, AcquireAs,
// AcquireWaiting and Probe (an OS file lock on a separate lock file);
// PIDAlive; FreeBytes. The ownership boundary built on them is its
// subpackage private. It is a leaf: it imports nothing of rfhandoff's.
package localfile
