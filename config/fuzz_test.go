package config

import (
	"os"
	"reflect"
	"testing"
)

// FuzzParse: Parse never panics, and whatever it accepts is valid and
// survives a render/parse round trip unchanged.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile(examplePath); err == nil {
		f.Add(data)
	}
	f.Add([]byte(""))
	f.Add([]byte("[limits]\nmin_remaining_s = 5\n"))
	f.Add([]byte("[repo]\ntask_branch = \"--upload-pack=x\"\n"))
	f.Add([]byte("[limit]\nmin_remaining_s = 20\n"))
	f.Add([]byte("[tx]\nEnabled = true\nenabled = false\n"))
	f.Add([]byte("[poll]\nrx_interval = \"1.5s\"\nmax_backoff = \"1h\"\n"))
	f.Add([]byte("[capture]\ndetect_threshold_db = nan\n"))
	f.Add([]byte("[tx]\naction = \"hackrf_transfer\"\nenabled = true\niq_file = \"iq/a.ci8\"\nmax_tx_vga_gain_db = 47\ntx_vga_gain_db = 47\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data, "fuzz.toml")
		if err != nil {
			return
		}
		if verr := p.Validate(); verr != nil {
			t.Fatalf("Parse accepted an invalid policy: %v", verr)
		}
		q, err := Parse([]byte(p.TOML()), "rendered")
		if err != nil {
			t.Fatalf("rendering of an accepted policy does not parse: %v\n%s", err, p.TOML())
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the policy:\n%s\nvs\n%s", p.TOML(), q.TOML())
		}
	})
}

// FuzzParseAllowedSigners: the parser never panics, and every signer it
// accepts has principals, a known key type and a SHA256 fingerprint.
func FuzzParseAllowedSigners(f *testing.F) {
	f.Add([]byte("alice@lab " + aliceKey + "\n"))
	f.Add([]byte(`alice@lab,"b c" namespaces="git,file",valid-after="20260101" ` + aliceKey + "\n# x\n\n"))
	f.Add([]byte(`*@lab cert-authority ` + rsaKey))
	f.Add([]byte(`"unterminated ` + aliceKey))
	f.Add([]byte("a ssh-ed25519 AAAA\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		signers, err := parseAllowedSigners(data)
		if err != nil {
			return
		}
		if len(signers) == 0 {
			t.Fatal("accepted a file without signers")
		}
		for _, s := range signers {
			if len(s.Principals) == 0 || !sshKeyTypes[s.KeyType] || len(s.Fingerprint) != len("SHA256:")+43 {
				t.Fatalf("accepted signer %+v", s)
			}
		}
	})
}
