// Package gitcli is rfhandoff's typed view of git: every operation the
// watchers and the publisher need, built on exec.Runner.
//
// Each method validates the arguments that come from data (branch and
// remote names, object IDs, repository paths, URLs) against strict patterns
// before git runs, and places them after --end-of-options (revisions,
// remotes, refs) or -- (paths), so that no value can become an option.
// Output is parsed by small pure functions with table tests and fuzz targets.
// Outcomes a caller must act on are typed errors: *ForcePushError,
// *PushRejectedError; ErrUnreadableFile, ErrNotFound and ErrInvalidArg via
// errors.Is. A call to the remote that failed for a cause stderr names is a
// *RemoteError saying what to do; anything else is an *opError wrapping the
// exec error. RemoteURL gives a remote's URL only when no config file
// redirects git from it; a Client's URL names the remote on the audit line
// of each call to it, and its Guard is asked before every call.
package gitcli
