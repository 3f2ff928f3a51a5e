package localfile

import (
	"path/filepath"
	"testing"
)

func TestFreeBytesOfAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	got, err := FreeBytes(filepath.Join(dir, "not", "yet", "there"))
	if err != nil || got <= 0 {
		t.Fatalf("FreeBytes of a directory to be created = %d, %v", got, err)
	}
}
