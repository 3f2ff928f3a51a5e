package mirror

import "context"

// maxPacks is how many packs the mirror may gather before it is repacked.
// Every fetch that brings something writes a pack of its own (a promisor
// fetch never unpacks into loose objects), and the fetches never run gc:
// without this a busy task branch would leave thousands of packs, and
// every lookup in the mirror would slow down with them.
var maxPacks = 50

// compact repacks the mirror once it holds more than maxPacks packs. The
// caller holds the mirror lock. A failure only delays the repack.
func (m *Mirror) compact(ctx context.Context) {
	if len(packs(m.Dir)) <= maxPacks {
		return
	}
	if err := m.git.Repack(ctx); err != nil {
		m.log.Warn("repacking the mirror failed; it is tried again after the next fetch", "mirror", m.Dir, "err", err)
	}
}
