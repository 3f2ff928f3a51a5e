// Package state is rfhandoff's crash-safe local state (PROTOCOL#rx-state): JSON files
// replaced atomically (temp file, fsync, rename, fsync of the directory),
// read strictly (a corrupt file is an error naming it, never a silent
// reset), and one watcher per side through an OS file lock on a separate
// lock file. It runs no subprocesses and never touches git.
//
// The ownership boundary lives here too: CheckPrivate, ReadPrivate and
// MkdirPrivate refuse what another account could change (PROTOCOL#rx-state),
// as OpenSSH's StrictModes does.
//
// What it offers: ReadRegular (the one bounded read of a local file) and
// ReadPrivate (the same, of a file only this account can change);
// CheckPrivate and MkdirPrivate (the state directory and what is in it);
// WriteFileAtomic, CreateTemp, WriteSynced and SyncDir (crash-safe writes);
// ReadJSON and WriteJSON; Acquire, AcquireAs and Probe (locks); SaveRX
// and SaveTX with the RX and TX state types; RXStore and TXRecordStore
// (the RX state and the MAIN side's list of issued authorization records,
// each changed under a lock held for milliseconds).
package state
