package exec

import "golang.org/x/sys/windows"

var transientErrno = windows.ERROR_INTERNAL_ERROR
