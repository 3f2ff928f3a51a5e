package config

import (
	"bytes"

	"github.com/BurntSushi/toml"
)

// TOML renders the effective policy as a TOML document that Parse reads
// back to the same policy. Durations print as Go duration strings.
func (p Policy) TOML() string {
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(p); err != nil {
		// Policy holds only strings, numbers, booleans and Durations, all
		// of which encode; failing here is a programming error.
		panic("config: encoding the policy: " + err.Error())
	}
	return b.String()
}
