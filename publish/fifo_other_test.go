//go:build !unix

package publish

import "errors"

func mkfifo(string) error { return errors.New("not supported") }
