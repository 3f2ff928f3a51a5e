package gitcli

import (
	"reflect"
	"testing"
)

// Outputs below were captured from git 2.39.5 with LC_ALL=C unless marked
// synthetic.

func TestParseFetchStderr(t *testing.T) {
	tests := []struct {
		name   string
		stderr string
		want   fetchOutcome
	}{
		{"force-pushed", "From /tmp/gx/remote\n ! [rejected]        rx-node    -> origin/rx-node  (non-fast-forward)\n",
			fetchOutcome{Rejected: true, Reason: "non-fast-forward", To: "origin/rx-node"}},
		{"long names", " ! [rejected]                video-development/with-a-long-name -> origin/video-development/with-a-long-name  (non-fast-forward)\n",
			fetchOutcome{Rejected: true, Reason: "non-fast-forward", To: "origin/video-development/with-a-long-name"}},
		{"missing remote ref", "fatal: couldn't find remote ref refs/heads/nope\n", fetchOutcome{MissingRef: true}},
		{"network", "fatal: '/nonexist' does not appear to be a git repository\nfatal: Could not read from remote repository.\n", fetchOutcome{}},
		{"progress with CR", "remote: Counting objects: 1\r ! [rejected]        a -> origin/a  (non-fast-forward)\r\n",
			fetchOutcome{Rejected: true, Reason: "non-fast-forward", To: "origin/a"}},
		{"updated is not rejected", "From /tmp/r\n   f6746d0..c8a69e1  rx-node    -> origin/rx-node\n", fetchOutcome{}},
		{"empty", "", fetchOutcome{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseFetchStderr([]byte(tt.stderr)); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseLsRemote(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []RemoteRef
		wantErr bool
	}{
		{"one", "72718507ae9d9e8d81ee3db646561aa5864bf4d0\trefs/heads/rx-node\n",
			[]RemoteRef{{"72718507ae9d9e8d81ee3db646561aa5864bf4d0", "refs/heads/rx-node"}}, false},
		{"none", "", nil, false},
		{"two", idA + "\tHEAD\n" + idB + "\trefs/heads/a/refs/heads/x\n",
			[]RemoteRef{{idA, "HEAD"}, {idB, "refs/heads/a/refs/heads/x"}}, false},
		{"no newline", idA + "\trefs/heads/x", nil, true},
		{"space not tab", idA + " refs/heads/x\n", nil, true},
		{"short id", "7271850\trefs/heads/x\n", nil, true},
		{"bad name", idA + "\tfoo\n", nil, true},
		{"space in name", idA + "\trefs/heads/a b\n", nil, true},
		{"blank line", idA + "\trefs/heads/x\n\n", nil, true},
		{"warning text", "warning: redirecting to https://x/\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLsRemote([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseLsTree(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []TreeEntry
		wantErr bool
	}{
		{"file", "100644 blob 45b983be36b73c0788dc9cbcb76cbb80fc7bb057       3\tdocs/h/X.md\x00",
			[]TreeEntry{{ModeFile, "blob", "45b983be36b73c0788dc9cbcb76cbb80fc7bb057", 3, "docs/h/X.md"}}, false},
		{"symlink and tree",
			"120000 blob e39e1f549a70e1a846d28793be56152263d1becb       4\tdocs/h/L\x00040000 tree 43163a4ac5055c9770c38ed660b27b8b7e83664e       -\tdocs\x00",
			[]TreeEntry{
				{ModeSymlink, "blob", "e39e1f549a70e1a846d28793be56152263d1becb", 4, "docs/h/L"},
				{ModeTree, "tree", "43163a4ac5055c9770c38ed660b27b8b7e83664e", -1, "docs"},
			}, false},
		{"gitlink (synthetic)", "160000 commit " + idA + "       -\tsub\x00",
			[]TreeEntry{{ModeGitlink, "commit", idA, -1, "sub"}}, false},
		{"path with space and tab", "100644 blob " + idA + "  2\ta b\tc\x00", []TreeEntry{{ModeFile, "blob", idA, 2, "a b\tc"}}, false},
		{"empty", "", nil, false},
		{"not NUL-terminated", "100644 blob " + idA + " 3\tx", nil, true},
		{"no path", "100644 blob " + idA + " 3\x00", nil, true},
		{"bad mode", "10064 blob " + idA + " 3\tx\x00", nil, true},
		{"octal mode", "100694 blob " + idA + " 3\tx\x00", nil, true},
		{"bad type", "100644 tag " + idA + " 3\tx\x00", nil, true},
		{"short id", "100644 blob 45b983b 3\tx\x00", nil, true},
		{"blob without size", "100644 blob " + idA + " -\tx\x00", nil, true},
		{"tree with size", "040000 tree " + idA + " 5\tx\x00", nil, true},
		{"negative size", "100644 blob " + idA + " -5\tx\x00", nil, true},
		{"without -l", "100644 blob " + idA + "\tx\x00", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLsTree([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseNameOnlyZ(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []string
		wantErr bool
	}{
		{"captured", "a\x00b\x00d/c\x00l\x00sp ace\x00", []string{"a", "b", "d/c", "l", "sp ace"}, false},
		{"empty", "", nil, false},
		{"newline in name", "a\nb\x00", []string{"a\nb"}, false},
		{"unterminated", "a\x00b", nil, true},
		{"empty record", "a\x00\x00", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseNameOnlyZ([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

const capturedRaw = ":100644 100755 78981922613b2afb6025042ff6bd878ac1994e85 78981922613b2afb6025042ff6bd878ac1994e85 M\x00a\x00" +
	":100644 000000 61780798228d17af2d34fce4cfbdf35556832472 0000000000000000000000000000000000000000 D\x00b\x00" +
	":100644 100644 f2ad6c76f0115a6ba5b00456a849810e7ec0af20 b51b4b797587fb260d20338ae19470758254e48c M\x00d/c\x00" +
	":000000 120000 0000000000000000000000000000000000000000 2e65efe2a145dda7ee51d1741299f848e5bf752e A\x00l\x00" +
	":000000 100644 0000000000000000000000000000000000000000 8ba3a16384aacc37d01564b28401755ce8053f51 A\x00sp ace\x00"

const zeroID = "0000000000000000000000000000000000000000"

func TestParseRawZ(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []StagedChange
		wantErr bool
	}{
		{"captured", capturedRaw, []StagedChange{
			{'M', ModeFile, ModeExec, "78981922613b2afb6025042ff6bd878ac1994e85", "78981922613b2afb6025042ff6bd878ac1994e85", "a"},
			{'D', ModeFile, modeNotThere, "61780798228d17af2d34fce4cfbdf35556832472", zeroID, "b"},
			{'M', ModeFile, ModeFile, "f2ad6c76f0115a6ba5b00456a849810e7ec0af20", "b51b4b797587fb260d20338ae19470758254e48c", "d/c"},
			{'A', modeNotThere, ModeSymlink, zeroID, "2e65efe2a145dda7ee51d1741299f848e5bf752e", "l"},
			{'A', modeNotThere, ModeFile, zeroID, "8ba3a16384aacc37d01564b28401755ce8053f51", "sp ace"},
		}, false},
		{"empty", "", nil, false},
		{"rename (synthetic)", ":100644 100644 " + idA + " " + idA + " R100\x00old\x00new\x00:000000 160000 " + idA[:7] + " " + idB[:7] + " A\x00sub\x00",
			[]StagedChange{{'R', ModeFile, ModeFile, idA, idA, "new"}, {'A', modeNotThere, ModeGitlink, idA[:7], idB[:7], "sub"}}, false},
		{"unterminated", ":100644 100644 " + idA + " " + idB + " M\x00a", nil, true},
		{"missing path", ":100644 100644 " + idA + " " + idB + " M\x00", nil, true},
		{"rename missing second path", ":100644 100644 " + idA + " " + idA + " R100\x00old\x00", nil, true},
		{"no colon", "100644 100644 " + idA + " " + idB + " M\x00a\x00", nil, true},
		{"bad mode", ":10064x 100644 " + idA + " " + idB + " M\x00a\x00", nil, true},
		{"bad id", ":100644 100644 xyz " + idB + " M\x00a\x00", nil, true},
		{"bad status", ":100644 100644 " + idA + " " + idB + " Q\x00a\x00", nil, true},
		{"status with score", ":100644 100644 " + idA + " " + idB + " M50\x00a\x00", nil, true},
		{"empty path", ":100644 100644 " + idA + " " + idB + " M\x00\x00", nil, true},
		{"name-only given", "a\x00b\x00", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseRawZ([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParsePushPorcelain(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []PushRefStatus
		wantErr bool
	}{
		{"non-fast-forward", "To file:///tmp/gx/remote.git\n!\tHEAD:refs/heads/rx-node\t[rejected] (non-fast-forward)\nDone\n",
			[]PushRefStatus{{'!', "HEAD", "refs/heads/rx-node", "[rejected]", "non-fast-forward"}}, false},
		{"remote rejected", "To file:///tmp/gx/remote.git\n!\tHEAD:refs/heads/rx-node\t[remote rejected] (failed to update ref)\nDone\n",
			[]PushRefStatus{{'!', "HEAD", "refs/heads/rx-node", "[remote rejected]", "failed to update ref"}}, false},
		{"new branch", "To file:///tmp/gx/remote.git\n*\tHEAD:refs/heads/nonexist\t[new branch]\nDone\n",
			[]PushRefStatus{{'*', "HEAD", "refs/heads/nonexist", "[new branch]", ""}}, false},
		{"up to date", "To file:///tmp/gx/remote.git\n=\tHEAD:refs/heads/nonexist\t[up to date]\nDone\n",
			[]PushRefStatus{{'=', "HEAD", "refs/heads/nonexist", "[up to date]", ""}}, false},
		{"fast-forward", "To /r\n \trefs/heads/main:refs/heads/main\tc8a69e1..c56151b\nDone\n",
			[]PushRefStatus{{' ', "refs/heads/main", "refs/heads/main", "c8a69e1..c56151b", ""}}, false},
		{"hook reason with parens", "To /r\n!\tHEAD:refs/heads/x\t[remote rejected] (protected branch hook declined (see docs))\nDone\n",
			[]PushRefStatus{{'!', "HEAD", "refs/heads/x", "[remote rejected]", "protected branch hook declined (see docs)"}}, false},
		{"deletion", "To /r\n-\t:refs/heads/x\t[deleted]\nDone\n", []PushRefStatus{{'-', "", "refs/heads/x", "[deleted]", ""}}, false},
		{"empty", "", nil, false},
		{"bad flag", "To /r\n?\tHEAD:refs/heads/x\t[rejected]\n", nil, true},
		{"missing tab", "To /r\n!\tHEAD:refs/heads/x [rejected]\n", nil, true},
		{"no colon", "To /r\n!\tHEAD\t[rejected]\n", nil, true},
		{"unterminated reason", "To /r\n!\tHEAD:refs/heads/x\t[rejected] (fetch first\n", nil, true},
		{"empty summary", "To /r\n!\tHEAD:refs/heads/x\t\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePushPorcelain([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestPushRejection(t *testing.T) {
	const dst = "refs/heads/rx-node"
	lockErr := "remote: error: cannot lock ref 'refs/heads/rx-node': is at 72718507ae9d9e8d81ee3db646561aa5864bf4d0 but expected c56151bd4ee0e26e24f9c7186e9af04c855e9ac5        \n" +
		"error: failed to push some refs to 'file:///tmp/gx/remote.git'\n"
	rej := func(summary, reason string) []PushRefStatus {
		return []PushRefStatus{{'!', "HEAD", dst, summary, reason}}
	}
	tests := []struct {
		name      string
		refs      []PushRefStatus
		stderr    string
		wantOK    bool
		wantMoved bool
	}{
		{"non-fast-forward", rej("[rejected]", "non-fast-forward"), "", true, true},
		{"fetch first", rej("[rejected]", "fetch first"), "", true, true},
		{"stale info", rej("[rejected]", "stale info"), "", true, true},
		{"ref changed during push", rej("[remote rejected]", "failed to update ref"), lockErr, true, true},
		{"failed to update ref, other cause", rej("[remote rejected]", "failed to update ref"), "remote: error: unable to write\n", true, false},
		{"lock error for another ref", rej("[remote rejected]", "failed to update ref"),
			"remote: error: cannot lock ref 'refs/heads/other': is at " + idA + " but expected " + idB + "\n", true, false},
		{"hook declined", rej("[remote rejected]", "pre-receive hook declined"), "remote: no\n", true, false},
		{"needs force", rej("[rejected]", "needs force"), "", true, false},
		{"success", []PushRefStatus{{' ', "HEAD", dst, "a..b", ""}}, "", false, false},
		{"other ref rejected", []PushRefStatus{{'!', "HEAD", "refs/heads/other", "[rejected]", "fetch first"}}, "", false, false},
		{"nothing", nil, "fatal: unable to access\n", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, moved, ok := pushRejection(tt.refs, dst, []byte(tt.stderr))
			if ok != tt.wantOK || moved != tt.wantMoved {
				t.Errorf("ok=%v moved=%v, want ok=%v moved=%v", ok, moved, tt.wantOK, tt.wantMoved)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		out     string
		want    [3]int
		wantErr bool
	}{
		{"git version 2.39.5\n", [3]int{2, 39, 5}, false},
		{"git version 2.39.3 (Apple Git-145)\n", [3]int{2, 39, 3}, false},
		{"git version 2.45.1.windows.1\n", [3]int{2, 45, 1}, false},
		{"git version 2.46.0.rc0\n", [3]int{2, 46, 0}, false},
		{"git version 2.46.rc0\n", [3]int{2, 46, 0}, false},
		{"git version 2\n", [3]int{}, true},
		{"git version x.y\n", [3]int{}, true},
		{"hub version 2.14.2\n", [3]int{}, true},
		{"", [3]int{}, true},
		{"git version 2.39.5\ngit version 2.1.0\n", [3]int{}, true},
	}
	for _, tt := range tests {
		got, err := parseVersion([]byte(tt.out))
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: err = %v, wantErr %v", tt.out, err, tt.wantErr)
			continue
		}
		if err == nil && [3]int{got.Major, got.Minor, got.Patch} != tt.want {
			t.Errorf("%q: got %v, want %v", tt.out, got, tt.want)
		}
	}
	if !(GitVersion{Major: 2, Minor: 39}).AtLeast(2, 30) || (GitVersion{Major: 2, Minor: 29}).AtLeast(2, 30) {
		t.Error("AtLeast compares wrongly")
	}
}
