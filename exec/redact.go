package exec

import (
	"net/url"
	"regexp"
	"strings"
)

// urlWithUser finds scheme://user:password@ in any argument.
var urlWithUser = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)([^/@\s:]*):([^/@\s]*)@`)

const Redacted = "REDACTED"

// Redact returns a copy of argv with URL passwords and secrets replaced.
func Redact(argv []string, secrets []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = redactString(a, secrets)
	}
	return out
}

func redactString(s string, secrets []string) string {
	s = urlWithUser.ReplaceAllString(s, "${1}${2}:"+Redacted+"@")
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	return s
}

func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return redactString(raw, nil)
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), Redacted)
	}
	return u.String()
}
