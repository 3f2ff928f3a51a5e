// argvdump is the notification command of notify's tests: it appends its
// arguments after the first, as one JSON array per line, to the file the
// first names.
package main

import (
	"encoding/json"
	"os"
)

func main() {
	line, err := json.Marshal(os.Args[2:])
	if err != nil {
		os.Exit(2)
	}
	f, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		os.Exit(3)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		os.Exit(4)
	}
	if err := f.Close(); err != nil {
		os.Exit(5)
	}
}
