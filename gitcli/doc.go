// Package gitcli is rfhandoff's typed view of git: every operation the
// watchers and the publisher need, built on exec.Runner.
//
// Each method validates the arguments that come from data (branch and
// remote names, object IDs, repository paths, URLs) against strict patterns
// before git runs, and places them after --end-of-options (revisions,
// remotes, refs) or -- (paths), so that no value can become an option.
// Output is parsed by small pure functions with table tests and fuzz targets.
// Outcomes a caller must act on are typed errors: *ForcePushError,
// *PushRejectedError; ErrUnreadableFile (too large, not a regular file), ErrNotFound
// and ErrInvalidArg (a value refused before git ran) via errors.Is. A call to the remote that failed for a
// cause stderr names (authentication, host key, unreachable, not found) is
// a *RemoteError saying what to do; anything else is an *opError wrapping the
// exec error.
//
// What it offers: Client, one method per git operation the program needs
// (fetch, show, log with signatures, clone, commit-tree, push, check-ignore,
// ...), each with validated arguments through exec, and RemoteURL, a
// remote's URL only when no config file redirects git from it; the pure
// parsers of git's output and of commit objects (CommitObject: what a
// signature covers, the key and certificate it names); RemoteError and its
// causes; and the validators (ValidBranch, ValidURL, ...). A Client's URL
// names the remote on the audit line of each call to it; its Guard, when
// set, is asked before every call (the mirror's own config check).
package gitcli
