// Package publish puts an RX result on the result branch (PROTOCOL#publishing). It is a
// library because two callers share it: `rx publish-result` and the capture
// executor, which publishes READY and then COMPLETE through the same code.
//
// Publish runs the seven checks in PROTOCOL's order and stops at the first
// failure (a *CheckError naming the check). Check 6 is answered by the
// clone the commit is built in: a shallow, single-branch, tag-less clone of
// the result branch alone in a private temporary directory, never checked
// out, with every filter and conversion off (only when it fails is the
// remote asked, to tell a missing branch from another failure). That
// clone, the task's fetch and the checkout's HEAD are read beside each
// other (prepare), each looked at only at its check. One ls-tree lists the
// levels of the result directory; the new blobs and trees are written as
// raw objects (unpack-objects --strict, which also refuses a tree naming a
// missing object), commit-tree makes a commit naming the audit chain's
// head, diff-tree reads it back (only the two files, as 100644 blobs of
// exactly the given bytes), and the commit is pushed by ID without force;
// when the branch moved meanwhile, all of it starts again from a fresh
// clone. The source checkout is only read (and its task branch fetched).
//
// RX_RESULT.json is written as the exact bytes given, not re-encoded: they
// passed the strict decoder, and keeping them means the SHA-256 the MAIN
// side keys the result by equals `sha256sum` of the operator's local file.
//
// What it offers: Publish, which runs the PROTOCOL#publishing checks in order and pushes one
// result commit, returning an Outcome (the commit now on the branch; NoOp when
// it already held the identical files) or a CheckError naming the step that
// refused; Prepare, which starts those reads before the result is known
// (rx capture's READY) and publishes it later through Prepared.Publish.
package publish
