package exec

// fsckLevels is how git judges a malformed object it receives
// (PROTOCOL#subprocesses, PROTOCOL#mirror), by fsck message ID (every one
// exists in git 2.36, MinVersion; an unknown one makes git warn).
// "error" refuses what could make a checkout unsafe (git's other errors
// stay); "warn" lets through what only looks wrong and cannot change what
// is checked out or verified.
var fsckLevels = []struct {
	level string
	ids   []string
}{
	{"error", []string{"hasDot", "hasDotdot", "hasDotgit", "fullPathname", "emptyName", "nullSha1", "nulInCommit",
		"gitignoreSymlink", "gitattributesSymlink", "mailmapSymlink"}},
	{"warn", []string{"badDate", "badDateOverflow", "badEmail", "badName", "badTimezone", "missingEmail",
		"missingNameBeforeEmail", "missingSpaceBeforeDate", "missingSpaceBeforeEmail", "zeroPaddedDate",
		"zeroPaddedFilemode", "badFilemode", "badTagName", "missingTaggerEntry"}},
}

// fsckPins set fsckLevels for sub: fetch.fsck.* for fetch and clone (git
// ignores them for a blobless fetch, which the mirror checks with fsck),
// fsck.* for fsck.
func fsckPins(sub string) []string {
	var prefix string
	switch sub {
	case "fetch", "clone":
		prefix = "fetch.fsck."
	case "fsck":
		prefix = "fsck."
	default:
		return nil
	}
	var out []string
	for _, l := range fsckLevels {
		for _, id := range l.ids {
			out = append(out, "-c", prefix+id+"="+l.level)
		}
	}
	return out
}
