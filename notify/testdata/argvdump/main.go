// argvdump is notify's test command: it appends its other arguments, its
// standard input and RFHANDOFF_* environment as a JSON line to the file
// its first argument names.
package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
)

func main() {
	stdin, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(2)
	}
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "RFHANDOFF_") {
			env[k] = v
		}
	}
	line, err := json.Marshal(map[string]any{"argv": os.Args[2:], "stdin": string(stdin), "env": env})
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
