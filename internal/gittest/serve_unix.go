//go:build unix

package gittest

import "testing"

// transports are the git transports a fixture runner allows: the remotes
// are reached over file://.
var transports = []string{"file"}

// ServeURL is the URL the fixtures reach the bare repository dir by:
// file://, which git serves by running git-upload-pack through sh.
func ServeURL(t testing.TB, dir string) string { return "file://" + dir }
