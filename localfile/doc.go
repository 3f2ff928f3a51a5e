// Package localfile holds the file primitives every side uses on its own
// disk (PROTOCOL#rx-state, PROTOCOL#local-files): ReadRegular (the one bounded read of a local
// file) and ReadPrivate (the same, of a file only this account can
// change); CheckPrivate and MkdirPrivate (the ownership boundary, as
// OpenSSH's StrictModes does); WriteFileAtomic, CreateTemp, WriteSynced,
// CleanTemps and SyncDir (crash-safe writes: temp file, fsync, rename,
// fsync of the directory); Acquire, AcquireAs, AcquireWaiting and Probe
// (an OS file lock on a separate lock file); PIDAlive; FreeBytes.
//
// It is a leaf: it imports nothing of rfhandoff's but errlist, runs no
// subprocess and knows no protocol file.
package localfile
