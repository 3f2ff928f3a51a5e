//go:build unix

package localfile

import (
	"os"
	"path/filepath"
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
