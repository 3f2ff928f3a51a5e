package txwatch

// modesKept: Windows keeps no permission bits (access is the ACL's), so a
// file's mode reads 0666 whatever it was created with.
const modesKept = false
