// Package mirror is rfhandoff's own copy of the branches it reads: a bare,
// blobless partial repository in the state directory whose promisor remote
// is the checkout's remote (PROTOCOL §20). A poll fetches commits and
// trees only, so its cost follows the task file, not whatever else was
// pushed to the branch; the one file read is fetched on its own, with its
// directory's tree and blob:limit=<max bytes + 1>, so an oversized file is
// refused undownloaded (gitcli.Promisor). Presence is checked with
// rev-list --missing=print, which never fetches lazily. Each side has its
// own mirror, never shared.
//
// Every git call runs through the checkout's audited runner with GIT_DIR
// set to the mirror, so git never falls back to a repository above it.
// The mirror is created on first use and rebuilt (in a temporary directory,
// then renamed into place) when it is missing, unreadable or points at
// another URL. Processes of one side serialise on a lock file beside it;
// holding it, any git lock file inside the mirror was left by a killed git
// and is removed.
//
// What it offers: Open, ForRX and ForTX (open, create or rebuild each side's
// mirror) and the Mirror's reads: FetchBranchUpdated, ResolveCommit,
// IsAncestor, ShowFile, FileHistory, FileHistorySince, VerifyLastChange,
// VerifyTip, TrailerValues, and for PROTOCOL §17 Commits, FileChanges and
// LastChange.
package mirror
