// Package private holds the ownership boundary (PROTOCOL#rx-state, PROTOCOL#local-files; OPERATIONS#threat-model): what rfhandoff
// trusts on the local disk — the state directory and everything in it, the
// audit log, the policy file and the files it names — must be changeable
// by this account alone. An agent working in the checkout as another
// account (the supported way to run one) can then write the working tree
// but none of these. As OpenSSH's StrictModes does, the check looks at the
// file itself and at every directory above it: a directory another account
// may write lets that account rename the file away and put its own in its
// place. Nothing is ever chmod'ed to pass: a directory others could write
// may already hold their files, and only a person can tell.
//
// Another account is any but this one and root (Windows: this account,
// Administrators and SYSTEM). Writable by one means a group or world write
// bit, unless the group is the owner's own with no other member and no
// POSIX access list lets others write; on Windows an entry granting another
// account change, rename or re-permission. A directory above is judged
// alike, a sticky one passing (not judged on Windows).
//
// Check, Read and Mkdir are its three uses: judge a path, read a file only
// if it passes, make a directory that passes (0700; on Windows an access
// list of this account, SYSTEM and Administrators, nothing inherited).
package private
