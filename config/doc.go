// Package config holds the policy file: TOML, every key optional with a safe
// default, unknown keys rejected, limits that may be tightened but never
// loosened (PROTOCOL#policy-file, PROTOCOL#policy-keys). The file, and the files it names, must be
// the operator's: never inside a git working tree, changeable by this
// account alone (private.Read).
//
// What it offers: Load, LoadLocated, Parse and Default, returning a Policy
// whose methods resolve every path and read the [trust] and [notify] files;
// Locate (where the policy file is looked for); TrustedPaths (what git
// must not track); CheckKeyWindow for allowed-signers windows and
// certificates' validity, and CertAuthorityFor (may a certificate have
// signed); and the fixed TX limits (frequency, sample rate,
// gain, duration) as constants.
package config
