package gitcli

import "testing"

// A drive path becomes Git for Windows' file://C:/... form (a leading
// slash would give git-upload-pack "/C:/..."); a UNC path keeps its two
// slashes.
func TestAbsoluteURLWindowsPaths(t *testing.T) {
	for in, want := range map[string]string{
		`C:\lab\rf.git`:          "file://C:/lab/rf.git",
		`d:/lab/rf.git`:          "file://d:/lab/rf.git",
		`\\srv\share\lab\rf.git`: "file:////srv/share/lab/rf.git",
		"file://C:/lab/rf.git":   "file://C:/lab/rf.git",
		"git@example.org:lab/rf": "git@example.org:lab/rf",
	} {
		got, err := AbsoluteURL(in, `C:\checkout`)
		if err != nil || got != want {
			t.Errorf("AbsoluteURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
