package demo

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// sameContent reports whether a and b hold the same bytes.
func sameContent(a, b string) error {
	fa, err := os.Open(a)
	if err != nil {
		return err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return err
	}
	defer fb.Close()
	ba, bb := make([]byte, 1<<16), make([]byte, 1<<16)
	for {
		na, erra := io.ReadFull(fa, ba)
		nb, errb := io.ReadFull(fb, bb)
		for _, err := range []error{erra, errb} {
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return err
			}
		}
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return fmt.Errorf("%s is not a copy of %s", a, b)
		}
		if erra != nil {
			return nil // both ended, at the same byte
		}
	}
}
