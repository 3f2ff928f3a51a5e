package gitcli

import (
	"rfhandoff/gitcli/gitname"
	"strings"
	"testing"
)

// Fuzz targets for every parser of git output and for the validators that
// guard argv. Seed corpora live in testdata/fuzz/<target>/.

func FuzzParseFetchStderr(f *testing.F) {
	f.Add([]byte("From /tmp/gx/remote\n ! [rejected]        rx-node    -> origin/rx-node  (non-fast-forward)\n"))
	f.Add([]byte("fatal: couldn't find remote ref refs/heads/nope\n"))
	f.Add([]byte("   f6746d0..c8a69e1  rx-node    -> origin/rx-node\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := parseFetchStderr(b)
		if out.Rejected != (out.Reason != "") {
			t.Fatalf("rejected %v with reason %q", out.Rejected, out.Reason)
		}
		if out.Rejected && !strings.Contains(string(b), "[rejected]") {
			t.Fatal("rejection found in output without [rejected]")
		}
	})
}

func FuzzParseLsRemote(f *testing.F) {
	f.Add([]byte("72718507ae9d9e8d81ee3db646561aa5864bf4d0\trefs/heads/rx-node\n"))
	f.Add([]byte(idA + "\tHEAD\n" + idB + "\trefs/heads/a/refs/heads/x\n"))
	f.Add([]byte(""))
	f.Add([]byte(idA + " refs/heads/x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		refs, err := parseLsRemote(b)
		if err != nil {
			return
		}
		for _, r := range refs {
			if ValidObjectID(r.ID) != nil || r.Name == "" || strings.ContainsAny(r.Name, "\n\t ") {
				t.Fatalf("accepted bad ref %+v", r)
			}
		}
	})
}

func FuzzParseLsTree(f *testing.F) {
	f.Add([]byte("100644 blob 45b983be36b73c0788dc9cbcb76cbb80fc7bb057       3\tdocs/h/X.md\x00"))
	f.Add([]byte("120000 blob e39e1f549a70e1a846d28793be56152263d1becb       4\tdocs/h/L\x00040000 tree 43163a4ac5055c9770c38ed660b27b8b7e83664e       -\tdocs\x00"))
	f.Add([]byte("160000 commit " + idA + "       -\tsub\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := parseLsTree(b)
		if err != nil {
			return
		}
		for _, e := range entries {
			if ValidObjectID(e.ID) != nil || e.Path == "" || len(e.Mode) != 6 || (e.Type == "blob") != (e.Size >= 0) {
				t.Fatalf("accepted bad entry %+v", e)
			}
		}
	})
}

func FuzzParseNameOnlyZ(f *testing.F) {
	f.Add([]byte("a\x00b\x00d/c\x00l\x00sp ace\x00"))
	f.Add([]byte(""))
	f.Add([]byte("a\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		paths, err := parseNameOnlyZ(b)
		if err != nil {
			return
		}
		if strings.Join(paths, "\x00")+termIf(len(paths) > 0) != string(b) {
			t.Fatalf("paths %q do not rebuild the input %q", paths, b)
		}
		for _, p := range paths {
			if p == "" {
				t.Fatal("accepted an empty path")
			}
		}
	})
}

func termIf(b bool) string {
	if b {
		return "\x00"
	}
	return ""
}

func FuzzParseRawZ(f *testing.F) {
	f.Add([]byte(capturedRaw))
	f.Add([]byte(":100644 100644 " + idA + " " + idA + " R100\x00old\x00new\x00"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		changes, err := parseRawZ(b)
		if err != nil {
			return
		}
		for _, c := range changes {
			if c.Path == "" || len(c.OldMode) != 6 || len(c.NewMode) != 6 || !strings.ContainsRune("ADMTUXRC", rune(c.Status)) {
				t.Fatalf("accepted bad change %+v", c)
			}
		}
	})
}

func FuzzParsePushPorcelain(f *testing.F) {
	f.Add([]byte("To file:///tmp/gx/remote.git\n!\tHEAD:refs/heads/rx-node\t[rejected] (non-fast-forward)\nDone\n"))
	f.Add([]byte("To file:///tmp/gx/remote.git\n!\tHEAD:refs/heads/rx-node\t[remote rejected] (failed to update ref)\nDone\n"))
	f.Add([]byte("To /r\n \trefs/heads/main:refs/heads/main\tc8a69e1..c56151b\nDone\n"))
	f.Add([]byte("To /r\n*\tHEAD:refs/heads/nonexist\t[new branch]\nDone\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		refs, err := parsePushPorcelain(b)
		if err != nil {
			return
		}
		for _, r := range refs {
			if !strings.ContainsRune(" +-*=!", rune(r.Flag)) || r.To == "" || r.Summary == "" {
				t.Fatalf("accepted bad status %+v", r)
			}
		}
		// Classification must never panic and only reports refs it was given.
		for _, r := range refs {
			st, _, ok := pushRejection(refs, r.To, b)
			if ok && (st.To != r.To || st.Flag != '!') {
				t.Fatalf("rejection %+v for %s", st, r.To)
			}
		}
	})
}

func FuzzParseVersion(f *testing.F) {
	f.Add([]byte("git version 2.39.5\n"))
	f.Add([]byte("git version 2.39.3 (Apple Git-145)\n"))
	f.Add([]byte("git version 2.45.1.windows.1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := parseVersion(b)
		if err == nil && (v.Major < 0 || v.Minor < 0 || v.Patch < 0 || !strings.HasPrefix(v.Raw, "git version ")) {
			t.Fatalf("accepted %q as %+v", b, v)
		}
	})
}

// FuzzValidators checks that nothing a validator accepts can be read by
// git as an option or escape its place.
func FuzzValidators(f *testing.F) {
	for _, s := range []string{"rx-node", "--upload-pack=touch /tmp/x", "a..b", "docs/x.md", "-x", ".git/config",
		"ext::sh -c x", "ssh://-oProxyCommand=x/r", "git@host:r.git", idA} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidBranch(s) == nil || validRemoteName(s) == nil || validRef(s) == nil {
			if strings.HasPrefix(s, "-") || strings.Contains(s, "..") || strings.ContainsAny(s, " :\\~^?*[\x00\n") {
				t.Fatalf("ref-like %q accepted", s)
			}
		}
		if ValidRepoPath(s) == nil {
			if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "/") || strings.Contains(s, "/-") ||
				strings.ContainsAny(s, " :*?[\\\x00\n\t") {
				t.Fatalf("path %q accepted", s)
			}
			for _, c := range strings.Split(s, "/") {
				if c == ".." || c == "." || strings.EqualFold(c, ".git") {
					t.Fatalf("path %q accepted", s)
				}
			}
		}
		if ValidURL(s) == nil && (strings.HasPrefix(s, "-") || strings.Contains(s, "::") || strings.ContainsAny(s, " \x00\n")) {
			t.Fatalf("URL %q accepted", s)
		}
		if ValidObjectID(s) == nil && len(s) != 40 {
			t.Fatalf("object ID %q accepted", s)
		}
	})
}

func FuzzParseSignature(f *testing.F) {
	id := strings.Repeat("ab", 20)
	f.Add([]byte(id + "\x00G\x00alice@lab\x00SHA256:jjwEBVxzyM+X59mDGwDuCmLLMTzMJQXXyt0yu5RIdaI\x00\n"))
	f.Add([]byte(id + "\x00N\x00\x00\x00\n"))
	f.Add([]byte(id + "\x00U\x00\x00SHA256:x\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sig, err := parseSignature(b)
		if err != nil {
			return
		}
		if ValidObjectID(sig.Commit) != nil || !strings.ContainsRune("GBUXYREN", rune(sig.Status)) {
			t.Fatalf("accepted %+v", sig)
		}
		if sig.Good() && (!gitname.PrintableLine(sig.Principal) || !strings.HasPrefix(sig.Fingerprint, "SHA256:")) {
			t.Fatalf("good signature with a bad signer: %+v", sig)
		}
		_ = describeVerify("", false)(b)
	})
}
