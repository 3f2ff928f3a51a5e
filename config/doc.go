// Package config holds the policy file: TOML, every key optional with a safe
// default, unknown keys rejected, limits that may be tightened but never
// loosened (PROTOCOL#policy-file, PROTOCOL#policy-keys). The file, and the files it names, must be
// the operator's: never inside a git working tree, changeable by this
// account alone (private.Read).
package config
