package txwatch

import (
	"strings"

	"rfhandoff/config"
	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
	"rfhandoff/result"
)

// fetchHintFile names the commit tx execute fetched last. The two share
// the tracking refs, so the watcher's next fetch would report no change
// for it; the hint makes the watcher resolve the refs instead.
const fetchHintFile = "tx_result_fetched"

func ReadFetchHint(pol config.Policy) string {
	b, err := private.Read(pol.StatePath(fetchHintFile), 128)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// WriteFetchHint records the tips tx execute fetched (several hashed, to
// stay within ReadFetchHint's bound). A failure only delays the watcher
// until its resync.
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
