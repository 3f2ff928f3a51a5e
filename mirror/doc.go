// Package mirror is rfhandoff's own copy of the branches it reads: a bare,
// single-branch, blobless partial repository in the state directory whose promisor remote
// is the checkout's remote (PROTOCOL#mirror). A poll fetches commits and
// trees only, so its cost follows the task file, not whatever else was
// pushed to the branch; the one file read is fetched on its own, with its
// directory's tree and blob:limit=<max bytes + 1>, so an oversized file is
// refused undownloaded (gitcli.Promisor). A server that refuses filters
// gets a full fetch, reported once. An idle poll is one subprocess. Presence is checked with
// rev-list --missing=print, which never fetches lazily. Each side has its
// own mirror, never shared.
//
// Every git call runs through the checkout's audited runner with GIT_DIR
// set to the mirror, so git never falls back to a repository above it.
// The mirror is created on first use and rebuilt (in a temporary directory,
// then renamed into place) when it is missing, unreadable, points at
// another URL or its config is not rfhandoff's: rebuild writes the whole
// config file, and every git call in the mirror first checks it byte for
// byte (guard), so that no replace-ref switch, URL rewrite or second URL
// an agent writes there is ever used. The remote's URL is the policy's
// repo.url, else the checkout's remote URL when git uses it unrewritten
// (RemoteURL); Open checks that git fetches from exactly it in the mirror
// too (global config), and every call to the remote goes through a mirror
// (RemoteBranchExists too), never the checkout. Processes of one side serialise on a lock file beside it;
// holding it, any git lock file inside the mirror was left by a killed git
// and is removed.
//
// What it offers: RemoteURL (the URL rfhandoff uses for the remote), Open,
// ForRX and ForTX (open, create or rebuild each side's mirror) and the
// Mirror's calls: FetchBranchUpdated, RemoteBranchExists, ResolveCommit,
// IsAncestor, ShowFile, FileHistory, FileHistorySince, VerifyLastChange,
// VerifyTip, TrailerValues, and for PROTOCOL#trust Commits, FileChanges and
// LastChange.
package mirror
