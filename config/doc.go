// Package config holds the policy file: TOML, every key optional with a safe
// default, unknown keys rejected, limits that may be tightened but never
// loosened (PROTOCOL §11, §14).
//
// What it offers: Load, LoadLocated, Parse and Default, returning a Policy
// whose methods resolve every path and read the [trust] and [notify] files;
// Locate (where the policy file is looked for); CheckKeyWindow for
// allowed-signers windows and certificates' validity, and CertAuthorityFor
// (may a certificate have signed); and the fixed TX limits (frequency, sample rate,
// gain, duration) as constants.
package config
