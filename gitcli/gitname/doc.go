// Package gitname is the one set of rules for the branch, remote and
// repository path names rfhandoff passes to git. gitcli checks every such
// argument with it and the policy loader checks repo.* with it; it
// imports nothing, so config can use it without depending on gitcli.
//
// The rules are deliberately narrower than git's own (git
// check-ref-format allows refs/heads/-x): nothing can start with '-' (an
// option), hold a space, a glob, pathspec magic or a revision operator.
// Each check (Branch, Remote, RepoPath, Ref, URL) returns the reason a
// value is refused, or "".
package gitname
