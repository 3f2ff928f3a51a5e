// Package gitcli is rfhandoff's typed view of git: every operation the
// watchers and the publisher need, built on exec.Runner.
//
// Arguments that come from data (branch and remote names, object IDs,
// repository paths, URLs) are checked against strict patterns before git
// runs and placed after --end-of-options or --, so that no value can become
// an option. Outcomes a caller must act on are typed errors:
// *ForcePushError, *PushRejectedError, *RemoteError (a remote call that
// failed for a cause stderr names, saying what to do); ErrUnreadableFile,
// ErrNotFound and ErrInvalidArg via errors.Is; anything else is an *opError
// wrapping the exec error.
package gitcli
