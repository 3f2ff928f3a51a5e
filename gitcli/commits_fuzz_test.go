package gitcli

import (
	"bytes"
	"rfhandoff/gitcli/sshsig"
	"strings"
	"testing"
)

// Fuzz targets for what PROTOCOL#trust reads of a commit object and of the
// signature in it.

func FuzzParseChanges(f *testing.F) {
	f.Add([]byte("commit " + idA + " " + idB + " 30 " + idB + "\n:100644 000000 " + idB + " " + idA + " D\tdocs/t.md\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		changes, err := parseChanges(b, "docs/t.md")
		if err != nil {
			return
		}
		for _, c := range changes {
			if ValidObjectID(c.Commit) != nil || ValidObjectID(c.Tree) != nil || c.Removed && c.Blob != "" || c.Blob != "" && ValidObjectID(c.Blob) != nil {
				t.Fatalf("accepted %+v", c)
			}
		}
	})
}

func FuzzSplitSigned(f *testing.F) {
	f.Add([]byte("tree " + idA + "\ncommitter c <c@d> 1 +0000\ngpgsig-sha256 x\n y\ngpgsig L1\n L2\n\nmsg\ngpgsig m\n"))
	f.Add([]byte("gpgsig"))
	f.Fuzz(func(t *testing.T, b []byte) {
		payload, sig := sshsig.Split(b)
		if len(payload)+len(sig) > len(b) {
			t.Fatalf("payload %d and signature %d bytes out of %d", len(payload), len(sig), len(b))
		}
		for _, line := range strings.Split(string(payload), "\n") {
			if line == "" {
				break // the message
			}
			if strings.HasPrefix(line, "gpgsig") {
				t.Fatalf("a gpgsig header stayed in the payload: %q", payload)
			}
		}
		if o, err := parseCommitObject(idA, b); err == nil && (ValidObjectID(o.Tree) != nil || !bytes.Equal(o.Payload, payload)) {
			t.Fatalf("accepted %+v", o)
		}
	})
}
