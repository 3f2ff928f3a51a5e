package txwatch

import (
	"testing"

	"rfhandoff/ident"
)

// FuzzParseRecord: no input panics; an accepted record re-encodes to bytes
// that parse to the same record, and holds every invariant a record must.
func FuzzParseRecord(f *testing.F) {
	good, err := encodeRecord(sampleRecord())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"record_version": 1, "record_version": 1}`))
	f.Add([]byte(`{"tx": {"tx": {"tx": {}}}}`))
	f.Add([]byte("\xEF\xBB\xBF{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRecord(data)
		if err != nil {
			return
		}
		if r.RFTXStarted || r.RFTX != 0 || !r.ExpiresAt.After(r.AuthorizedAt) ||
			!ident.TaskID.MatchString(r.TaskID) || !ident.Commit.MatchString(r.ResultCommit) || !ident.SHA256.MatchString(r.ResultSHA256) ||
			r.TX.TXVGAGainDB < 0 || r.TX.TXVGAGainDB > 47 || r.TX.DurationS < 1 {
			t.Fatalf("accepted a record breaking an invariant: %+v", r)
		}
		again, err := encodeRecord(r)
		if err != nil {
			t.Fatalf("accepted record does not re-encode: %v", err)
		}
		r2, err := ParseRecord(again)
		if err != nil {
			t.Fatalf("re-encoded record does not parse: %v\n%s", err, again)
		}
		if r2.TX != r.TX || !r2.ExpiresAt.Equal(r.ExpiresAt) || !r2.AuthorizedAt.Equal(r.AuthorizedAt) ||
			!r2.CaptureEndsAt.Equal(r.CaptureEndsAt) || r2.ResultSHA256 != r.ResultSHA256 || r2.ResultCommit != r.ResultCommit ||
			r2.TaskID != r.TaskID || r2.ResultBranch != r.ResultBranch {
			t.Fatalf("round trip changed the record:\n%+v\n%+v", r, r2)
		}
	})
}
