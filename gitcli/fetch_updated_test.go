package gitcli

import (
	"reflect"
	"strings"
	"testing"
)

// Lines below were captured from git 2.39.5 (LC_ALL=C) unless marked
// synthetic.
func TestParseFetchUpdate(t *testing.T) {
	tests := []struct {
		name   string
		stderr string
		want   FetchUpdate
		moved  bool
	}{
		{"nothing changed", "", FetchUpdate{}, false},
		{"fast-forward", "From /tmp/fx/r\n   563cbcf..5f01b42  video-development -> origin/video-development\n",
			FetchUpdate{Updated: true, Old: "563cbcf", New: "5f01b42"}, true},
		{"new branch", "From /tmp/fx/r\n * [new branch]      video-development -> origin/video-development\n",
			FetchUpdate{Updated: true}, true},
		{"CRLF and progress", "remote: Counting objects: 3\rFrom git://127.0.0.1:9418/r\r\n   563cbcf..5f01b42  vd         -> origin/vd\r\n",
			FetchUpdate{Updated: true, Old: "563cbcf", New: "5f01b42"}, true},
		{"full destination (synthetic)", "   563cbcf..5f01b42  vd -> refs/remotes/origin/vd\n",
			FetchUpdate{Updated: true, Old: "563cbcf", New: "5f01b42"}, true},
		{"compact output (synthetic)", "   563cbcf..5f01b42  vd -> origin/*\n",
			FetchUpdate{Updated: true, Old: "563cbcf", New: "5f01b42"}, true},
		{"forced (synthetic; our refspec has no +)", " + 563cbcf...5f01b42 vd -> origin/vd  (forced update)\n",
			FetchUpdate{Updated: true, Old: "563cbcf", New: "5f01b42"}, true},
		{"up to date with -v", "From /tmp/fx/r\n = [up to date]      vd         -> origin/vd\n", FetchUpdate{}, false},
		{"another ref is not ours", "   563cbcf..5f01b42  rx-node -> origin/rx-node\n",
			FetchUpdate{Unrecognized: []string{"   563cbcf..5f01b42  rx-node -> origin/rx-node"}}, true},
		{"a warning means maybe", "warning: redirecting to https://example.invalid/r.git/\n",
			FetchUpdate{Unrecognized: []string{"warning: redirecting to https://example.invalid/r.git/"}}, true},
		{"rejected is not an update", " ! [rejected]        vd         -> origin/vd  (non-fast-forward)\n",
			FetchUpdate{Unrecognized: []string{" ! [rejected]        vd         -> origin/vd  (non-fast-forward)"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			branch := "vd"
			if strings.Contains(tt.stderr, "video-development") {
				branch = "video-development"
			}
			got := parseFetchUpdate([]byte(tt.stderr), "origin", branch)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if got.MayHaveMoved() != tt.moved {
				t.Errorf("MayHaveMoved = %v, want %v", got.MayHaveMoved(), tt.moved)
			}
		})
	}
}

// An empty stderr is the only thing that lets a caller skip resolving; any
// non-empty output says "maybe moved" unless it is an explicit up-to-date
// line for our ref.
func FuzzParseFetchUpdate(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("From /tmp/fx/r\n   563cbcf..5f01b42  vd         -> origin/vd\n"))
	f.Add([]byte(" * [new branch]      vd         -> origin/vd\n"))
	f.Add([]byte(" = [up to date]      vd         -> origin/vd\n"))
	f.Add([]byte("warning: x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		u := parseFetchUpdate(b, "origin", "vd")
		if u.Updated && !strings.Contains(string(b), "->") {
			t.Fatalf("update found in %q without a ref line", b)
		}
		if (u.Old == "") != (u.New == "") {
			t.Fatalf("half a range: %+v", u)
		}
		if u.MayHaveMoved() {
			return
		}
		for _, line := range outputLines(b) {
			if !strings.HasPrefix(line, "From ") && !strings.HasPrefix(line, "remote: ") && !strings.HasPrefix(line, " = ") {
				t.Fatalf("line %q ignored, but it could report a change", line)
			}
		}
	})
}

// parseFetchUpdate is parseFetchUpdates of a fetch of one branch.
func parseFetchUpdate(stderr []byte, remote, branch string) FetchUpdate {
	return parseFetchUpdates(stderr, remote, []string{branch})[branch]
}
