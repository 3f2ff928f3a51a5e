package txwatch

import (
	"strings"

	"rfhandoff/config"
	"rfhandoff/localfile"
)

// fetchHintFile is written by tx execute after it fetched the result
// branch, naming the commit it saw. tx execute and tx watch share the
// checkout's tracking ref, so the watcher's next fetch would report no
// change for a commit the executor already fetched; the hint makes the
// watcher resolve the ref instead of missing that commit.
const fetchHintFile = "tx_result_fetched"

func readFetchHint(pol config.Policy) string {
	b, err := localfile.ReadPrivate(pol.StatePath(fetchHintFile), 128)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// writeFetchHint records commit as fetched; failing to write it only
// delays the watcher until its resync, so the error is not fatal.
func writeFetchHint(pol config.Policy, commit string) error {
	return localfile.WriteFileAtomic(pol.StatePath(fetchHintFile), []byte(commit+"\n"), 0o600)
}
