package config

import (
	"fmt"
	"io"
	"os"
)

// TooLargeError is a file over the size limit ReadRegularFile was given;
// a caller that knows which setting set the limit names it.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string { return fmt.Sprintf("larger than %d bytes", e.Limit) }

// ReadRegularFile reads path, which must be a regular file of at most limit
// bytes, never reading more than limit+1 of it (so a huge or endless file
// costs nothing). Its own errors do not name path; those from the file
// system (*fs.PathError) do.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return data, nil
}
