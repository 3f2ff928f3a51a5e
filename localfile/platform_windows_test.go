package localfile

// modesKept: Windows keeps no permission bits (access is the ACL's), so a
// file's mode reads 0666 whatever it was created with.
const modesKept = false

// alwaysAlivePID: no pid is always there and not ours (0 skips the check).
const alwaysAlivePID = 0
