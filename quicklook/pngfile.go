package quicklook

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// WritePNGFile renders the quick-look to path atomically: a temporary file
// in the same directory, synced, then renamed over path, so a reader never
// sees half a PNG.
func WritePNGFile(path string, a *Analysis, d Detection, m Meta) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("quick-look %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	if err = RenderPNG(w, a, d, m); err != nil {
		return fmt.Errorf("quick-look %s: %w", path, err)
	}
	if err = w.Flush(); err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		return fmt.Errorf("quick-look %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("quick-look %s: %w", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("quick-look %s: %w", path, err)
	}
	return nil
}
