package exec

// fsckLevels is how git judges a malformed object it receives
// (PROTOCOL#subprocesses, PROTOCOL#mirror), by git's fsck message ID (fsck.h; every ID here exists in
// git 2.36, MinVersion: an unknown one makes git print a warning).
//
// "error" refuses the object: the checks that keep a checkout safe (paths
// named .git, . or .., absolute or empty names, a symbolic link in place
// of .gitmodules, .gitattributes, .gitignore or .mailmap, a NUL in a commit,
// whose text rfhandoff reads) — git's defaults for the rest of the tree,
// .gitmodules and structure checks already are errors and stay so.
// "warn" lets through what only looks wrong and cannot change what is
// checked out or verified: an author or committer line with a bad date,
// time zone, name or e-mail, or a missing space; a zero-padded or odd file
// mode; a tag's odd name or missing tagger.
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

// fsckPins are the -c options that set fsckLevels for the git subcommand
// sub: fetch and clone check what they receive (fetch.fsck.*; git passes
// them to index-pack for a complete fetch, and ignores them for a
// blobless one, which the mirror checks with fsck instead); fsck checks
// with fsck.*.
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
