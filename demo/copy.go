package demo

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// copyFile copies src to a new file dst (never over an existing one).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s to %s: %w", src, dst, err)
	}
	return out.Close()
}

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
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return fmt.Errorf("%s is not a copy of %s", a, b)
		}
		if erra != nil || errb != nil {
			if (erra == io.EOF || erra == io.ErrUnexpectedEOF) && (errb == io.EOF || errb == io.ErrUnexpectedEOF) {
				return nil
			}
			if erra != nil && erra != io.EOF && erra != io.ErrUnexpectedEOF {
				return erra
			}
			return errb
		}
	}
}
