package exec

import "errors"

// Detail is the full account of the failed subprocess in err's chain (its
// redacted argv and stderr, as the audit log's end line has it), or "" when
// err holds none. Errors that say the cause in short (gitcli.RemoteError)
// leave this out of their message; -v logs it.
func Detail(err error) string {
	var ee *ExitError
	var te *timeoutError
	switch {
	case errors.As(err, &ee):
		return ee.Error()
	case errors.As(err, &te):
		return te.Error()
	}
	return ""
}
