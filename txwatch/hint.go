package txwatch

import (
	"strings"

	"rfhandoff/config"
	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
	"rfhandoff/result"
)

// fetchHintFile is written by tx execute after it fetched the result
// branch, naming the commit it saw. tx execute and tx watch share the
// checkout's tracking ref, so the watcher's next fetch would report no
// change for a commit the executor already fetched; the hint makes the
// watcher resolve the ref instead of missing that commit.
const fetchHintFile = "tx_result_fetched"

// ReadFetchHint is the commit (or commits' digest) tx execute fetched last.
func ReadFetchHint(pol config.Policy) string {
	b, err := private.Read(pol.StatePath(fetchHintFile), 128)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// WriteFetchHint records the commits tx execute fetched (tips, one per
// branch; several are hashed to stay within ReadFetchHint's bound);
// failing to write it only delays the watcher until its resync, so the
// error is not fatal. No tips writes nothing.
func WriteFetchHint(pol config.Policy, tips []string) error {
	if len(tips) == 0 {
		return nil
	}
	hint := strings.Join(tips, " ")
	if len(tips) > 1 {
		hint = result.SHA256([]byte(hint))
	}
	return localfile.WriteFileAtomic(pol.StatePath(fetchHintFile), []byte(hint+"\n"), 0o600)
}
