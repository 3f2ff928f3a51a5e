package quicklook

import (
	"bytes"
	"fmt"

	"rfhandoff/localfile"
)

// WritePNGFile renders the quick-look to path atomically
// (localfile.WriteFileAtomic), so a reader never sees half a PNG.
func WritePNGFile(path string, a *Analysis, d Detection, m Meta) error {
	var buf bytes.Buffer
	if err := RenderPNG(&buf, a, d, m); err != nil {
		return fmt.Errorf("quick-look %s: %w", path, err)
	}
	if err := localfile.WriteFileAtomic(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("quick-look: %w", err)
	}
	return nil
}
