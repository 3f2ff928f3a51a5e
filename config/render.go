package config

import (
	"bytes"

	"github.com/BurntSushi/toml"
)

// TOML renders the policy as a document Parse reads back to the same policy.
func (p Policy) TOML() string {
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(p); err != nil {
		// Policy holds only types that encode: a programming error.
		panic("config: encoding the policy: " + err.Error())
	}
	return b.String()
}
