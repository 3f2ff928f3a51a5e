//go:build unix

package localfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO is refused without waiting for a writer: opening one for reading
// blocks until somebody opens it for writing, so a read that opened it
// would hang here (the writer below lets such a read finish, and the test
// then fails on the data it returned).
func TestReadRegularRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Write([]byte("from the writer"))
			w.Close()
		}
	}()
	data, err := ReadRegular(fifo, 64)
	// Release the writer if ReadRegular never opened the FIFO.
	if r, oerr := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); oerr == nil {
		<-wrote
		r.Close()
	}
	if data != nil {
		t.Errorf("the FIFO was read: %q", data)
	}
	wantRefusal(t, err, fifo, "a FIFO")
}

// A device is refused: /dev/zero never ends and /dev/null reads as empty,
// and neither is a file anybody wrote.
func TestReadRegularRefusesADevice(t *testing.T) {
	for _, dev := range []string{"/dev/null", "/dev/zero"} {
		if _, err := os.Lstat(dev); err != nil {
			t.Skipf("%s: %v", dev, err)
		}
		data, err := ReadRegular(dev, 64)
		if data != nil {
			t.Errorf("%s was read: %q", dev, data)
		}
		wantRefusal(t, err, dev, "a device")
	}
}

// A file replaced by WriteFileAtomic again and again while it is read (how
// every state file is written, readers taking no lock) is read as one whole
// version each time, never refused as replaced while it was being opened.
// Unix only: under Wine a reader that never pauses keeps the writer's
// replace failing (Access denied after its retries), which is the writer's
// limit there, not what this test is about.
func TestReadRegularDuringRenames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	versions := []string{strings.Repeat("a", 4096), strings.Repeat("b", 100)}
	if err := os.WriteFile(path, []byte(versions[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			// The state files' own writer: temp file, fsync, rename.
			if err := WriteFileAtomic(path, []byte(versions[i%2]), 0o600); err != nil {
				done <- err
				return
			}
		}
	}()
	for range 2000 {
		data, err := ReadRegular(path, 1<<20)
		if err != nil {
			close(stop)
			t.Fatalf("read during renames: %v", err)
		}
		if string(data) != versions[0] && string(data) != versions[1] {
			close(stop)
			t.Fatalf("read %d bytes that are neither version", len(data))
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
