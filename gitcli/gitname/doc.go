// Package gitname is the one set of rules for the branch, remote and
// repository path names rfhandoff passes to git. gitcli checks every such
// argument with it and the policy loader checks repo.* with it; it
// imports nothing, so config can use it without depending on gitcli.
//
// The rules are deliberately narrower than git's own (git
// check-ref-format allows refs/heads/-x): nothing can start with '-' (an
// option), hold a space, a glob, pathspec magic or a revision operator.
// Each check returns the reason a name is refused, or "".
//
// What it offers: Branch, Remote, RepoPath, Ref and URL (a remote's URL,
// which the policy may name too), each returning why a value is refused
// or "", and the length limits as constants.
package gitname
