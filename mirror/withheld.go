package mirror

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"rfhandoff/gitcli"
	"rfhandoff/localfile"
	"rfhandoff/localfile/private"
)

// withheldFile, inside the mirror, lists the blobs a bounded fetch did
// not bring because they are over its limit ("<blob> <limit>" lines), so
// that reading a history with an oversized version does not fetch again
// on every run. It goes with the mirror: a rebuilt one asks once more.
const withheldFile = "rfhandoff-withheld"

// maxWithheldBytes bounds the read of withheldFile; past it the list only
// costs fetches.
const maxWithheldBytes = 1 << 20

// withheld implements gitcli.WithheldMemo for the mirror at dir. Its
// callers hold the mirror lock.
type withheld struct{ dir string }

var _ gitcli.WithheldMemo = withheld{}

func (w withheld) path() string { return filepath.Join(w.dir, withheldFile) }

// read is the recorded limits by blob; a damaged line only costs a fetch.
func (w withheld) read() map[string]int64 {
	out := map[string]int64{}
	data, err := private.Read(w.path(), maxWithheldBytes)
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		blob, lim, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseInt(lim, 10, 64)
		if ok && err == nil && gitcli.ValidObjectID(blob) == nil && n > out[blob] {
			out[blob] = n
		}
	}
	return out
}

func (w withheld) Withheld(blob string, limit int64) bool {
	n, ok := w.read()[blob]
	return ok && n >= limit
}

func (w withheld) RecordWithheld(blobs []string, limit int64) error {
	known := w.read()
	for _, b := range blobs {
		known[b] = max(known[b], limit)
	}
	var b strings.Builder
	for blob, n := range known {
		fmt.Fprintf(&b, "%s %d\n", blob, n)
	}
	if err := localfile.WriteFileAtomic(w.path(), []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	return nil
}
