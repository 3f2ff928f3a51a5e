// Package exec is the one place in rfhandoff that starts processes.
//
// Every external program (git, hackrf_info, hackrf_transfer, hackrf_clock,
// the clock query timedatectl or w32tm, chronyc's clock report) runs through a Runner built by New:
// an audit log wraps an allowlist which wraps the os/exec implementation. No other package imports os/exec.
//
// # Git's config pins (PROTOCOL#subprocesses)
//
// Anything that can write a checkout's .git/config or a mirror's config
// must not make git start a program that is not on record, nor read other
// history. Every git call therefore gets, visible in its audit argv:
//
//   - programs, pinned with -c (read after every file) unless noted:
//     --upload-pack=git-upload-pack on fetch, ls-remote and clone and
//     --receive-pack=git-receive-pack on push (first-one-wins keys, so an
//     option of the call); core.sshCommand=<[tools] ssh_command, default
//     ssh> (GIT_SSH, GIT_SSH_COMMAND dropped); credential.helper= then
//     credential.helper=<[tools] git_credential_helper> when set;
//     core.askPass= (GIT_ASKPASS, SSH_ASKPASS dropped);
//     core.alternateRefsCommand=; core.gitProxy=; core.hooksPath=<an empty
//     private directory>; core.fsmonitor=false; core.pager=cat;
//     gpg.program, gpg.ssh.program and gpg.x509.program pinned to the
//     resolved ssh-keygen on the calls that sign or verify, and
//     user.signingkey on those that sign: a call that asks to sign without
//     its key is refused (Signatures.signing), so git never reads
//     gpg.ssh.defaultKeyCommand; commit.gpgSign=false push.gpgSign=false
//     log.showSignature=false on every call; protocol.allow=never with
//     protocol.<transport>.allow=always for the remote URL's transport
//     only, and GIT_ALLOW_PROTOCOL, which overrides every file (no ext::,
//     no remote helper); core.unsetEnvVars=PERL5LIB (Windows: a listed
//     variable would strip the pins from git's children);
//     submodule.recurse=false; transfer.fsckObjects=true,
//     fetch.fsckObjects=true and, on fetch and clone, the levels of fsck.go;
//   - history: core.useReplaceRefs=false (with GIT_NO_REPLACE_OBJECTS=1),
//     GIT_GRAFT_FILE=<the null device> with advice.graftFileDeprecated=false,
//     core.commitGraph=false.
//
// Proven unable to start a program in rfhandoff's calls, so not pinned:
// uploadpack.packObjectsHook, trace2.*, safe.* (read only from system and
// global config); diff.external and diff drivers (--no-ext-diff
// --no-textconv; show of a blob never converts); filter drivers (nothing
// stages or checks out but the publisher's clone, whose info/attributes
// unsets every filter, and the demo's sandbox); include.path and includeIf
// (only more config, which the pins override); ssh.variant; submodule.*.
// Considered and left: http.* and remote.<name>.proxy, fetch.fsck.skipList,
// fetch.bundleURI (read only in the mirror and the clone, whose config is
// rfhandoff's or git's), what reads print (log.*, color.*, i18n.*,
// core.quotePath), editors (no call asks for a message), extensions.* and
// core.worktree/bare (can only make git fail), gc.* (fetch runs with
// --no-auto-gc, maintenance.auto=false stops the run after a commit; the
// mirror sets gc.auto=0). A file:// remote's own
// upload-pack reads that repository's config, like any server.
//
// The transport is read as git reads it (ProtocolOf). A start the system
// refused for a moment is retried (startAttempts). Each child is the root
// of its own process tree (a new session on Unix, a Job Object on
// Windows); cancelling a call sends the tree SIGINT and kills it after
// defaultGrace. The child environment is env.go's: keptEnv, platformEnv
// and fixedEnv, plus GIT_ALLOW_PROTOCOL and GIT_GRAFT_FILE for git.
//
// # The audit log
//
// Appending locks the file and reads only its last line. A write or sync
// that fails part-way is cut back, so no partial line stays. The log must
// be a regular file (openAuditFile). The git calls of the checks before
// writing are held in memory until the log opens. An end line is not
// synced by itself (appendEnd). Decision lines (decision.go): their kinds
// and fields are PROTOCOL#audit-log's.
//
// What it offers: New (the Stack: Run, Start), the audit log, tool
// resolution, ProcessStart, and the errors callers branch on.
package exec
