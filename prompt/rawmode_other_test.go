//go:build !linux

package prompt_test

import "errors"

func makeRaw() (restore func(), stillRaw func() bool, err error) {
	return nil, nil, errors.New("raw-mode scenario only on Linux")
}
