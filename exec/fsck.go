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
var fsckLevels = []struct{ id, level string }{
	{"hasDot", "error"},
	{"hasDotdot", "error"},
	{"hasDotgit", "error"},
	{"fullPathname", "error"},
	{"emptyName", "error"},
	{"nullSha1", "error"},
	{"nulInCommit", "error"},
	{"gitignoreSymlink", "error"},
	{"gitattributesSymlink", "error"},
	{"mailmapSymlink", "error"},

	{"badDate", "warn"},
	{"badDateOverflow", "warn"},
	{"badEmail", "warn"},
	{"badName", "warn"},
	{"badTimezone", "warn"},
	{"missingEmail", "warn"},
	{"missingNameBeforeEmail", "warn"},
	{"missingSpaceBeforeDate", "warn"},
	{"missingSpaceBeforeEmail", "warn"},
	{"zeroPaddedDate", "warn"},
	{"zeroPaddedFilemode", "warn"},
	{"badFilemode", "warn"},
	{"badTagName", "warn"},
	{"missingTaggerEntry", "warn"},
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
	out := make([]string, 0, 2*len(fsckLevels))
	for _, l := range fsckLevels {
		out = append(out, "-c", prefix+l.id+"="+l.level)
	}
	return out
}
