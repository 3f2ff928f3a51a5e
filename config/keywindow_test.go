package config

import (
	"math"
	"os"
	"path/filepath"
	"rfhandoff/gitcli/sshsig"
	"strings"
	"testing"
	"time"
)

func TestParseSignerTime(t *testing.T) {
	local := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.Local)
	}
	utc := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	for _, tc := range []struct {
		in   string
		want time.Time
		err  string
	}{
		{in: "20210101", want: local(2021, 1, 1, 0, 0, 0)},
		{in: "20210101Z", want: utc(2021, 1, 1, 0, 0, 0)},
		{in: "202101011230", want: local(2021, 1, 1, 12, 30, 0)},
		{in: "20210101123059Z", want: utc(2021, 1, 1, 12, 30, 59)},
		{in: "20210101123059z", want: utc(2021, 1, 1, 12, 30, 59)},
		{in: "2021010", err: "is not YYYYMMDD"},
		{in: "2021-01-01", err: "is not YYYYMMDD"},
		{in: "2021013", err: "is not YYYYMMDD"},
		{in: "20211301", err: "not a valid time"},
		{in: "", err: "is not YYYYMMDD"},
		{in: "Z", err: "is not YYYYMMDD"},
		{in: "+2021010", err: "is not YYYYMMDD"},
	} {
		got, err := parseSignerTime(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), `"`+tc.in+`"`) {
				t.Errorf("%q: err = %v, want one naming the value and containing %q", tc.in, err, tc.err)
			}
		case err != nil || !got.Equal(tc.want):
			t.Errorf("%q = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if _, err := parseAllowedSigners([]byte(`alice@lab valid-before="yesterday" ` + aliceKey)); err == nil || !strings.Contains(err.Error(), "line 1: option valid-before") {
		t.Fatalf("a bad valid-before: err = %v, want it named with its line", err)
	}
}

// ssh-keygen's rule, in whole seconds: valid-after ≤ t ≤ valid-before.
func TestSignerValidAt(t *testing.T) {
	s, err := parseAllowedSigners([]byte(`alice@lab valid-after="20210101Z",valid-before="20220101Z" ` + aliceKey + "\nbob@lab " + bobKey))
	if err != nil {
		t.Fatal(err)
	}
	after, before := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		at   time.Time
		want bool
	}{
		{after.Add(-time.Second), false},
		{after, true},
		{after.Add(400 * time.Millisecond), true},
		{before, true},
		{before.Add(999 * time.Millisecond), true}, // the same second
		{before.Add(time.Second), false},
		{time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		if got := s[0].validAt(tc.at); got != tc.want {
			t.Errorf("ValidAt(%s) = %v, want %v", tc.at.Format(time.RFC3339Nano), got, tc.want)
		}
	}
	if !s[1].validAt(time.Unix(0, 0)) || s[1].window() != "no limit" {
		t.Errorf("a line without options: window %q", s[1].window())
	}
	if w := s[0].window(); w != `valid-after="20210101Z" (2021-01-01T00:00:00Z) valid-before="20220101Z" (2022-01-01T00:00:00Z)` {
		t.Errorf("Window() = %q", w)
	}
}

func TestCheckKeyWindow(t *testing.T) {
	file := filepath.Join(t.TempDir(), "allowed_signers")
	lines := strings.Join([]string{
		`old@lab valid-before="20210101Z" ` + aliceKey,
		`new@lab,alice@lab namespaces="git" ` + aliceKey,
		`later@lab valid-after="29990101Z" ` + aliceKey,
		`filer@lab namespaces="file" ` + bobKey,
		`"*@ca" cert-authority,valid-before="20210101Z" ` + bobKey,
		`*@lab,!mallory@lab cert-authority,namespaces="git" ` + bobKey,
		`carol@lab cert-authority,namespaces="git",valid-after="29990101Z" ` + bobKey,
		`carol@lab cert-authority ` + bobKey,
	}, "\n")
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	now := KeyTime{What: "now", At: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	old := KeyTime{What: "published_at", At: time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC)}
	// Certificates of the key "SHA256:certkey", signed by bob's key as a CA.
	cert := func(principal string, after, before time.Time) *sshsig.Certificate {
		return &sshsig.Certificate{Type: sshsig.UserCert, KeyID: "id-" + principal, Serial: 7, Principals: []string{principal},
			ValidAfter: uint64(after.Unix()), ValidBefore: uint64(before.Unix()), CA: bobFP}
	}
	y2020, y2021, y2030 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	forever := &sshsig.Certificate{Type: sshsig.UserCert, Principals: []string{"alice@lab"}, ValidBefore: math.MaxUint64, CA: bobFP}
	for _, tc := range []struct {
		name, principal, fp string
		cert                *sshsig.Certificate
		times               []KeyTime
		err                 []string // substrings; nil for no error
	}{
		{"listed, no limit", "alice@lab", aliceFP, nil, []KeyTime{now}, nil},
		{"another principal of the same line", "new@lab", aliceFP, nil, []KeyTime{now, old}, nil},
		{"withdrawn, now", "old@lab", aliceFP, nil, []KeyTime{now}, []string{"key " + aliceFP + " for old@lab is outside its window at now (2026-06-01T00:00:00Z)", file + " line 1", `valid-before="20210101Z"`}},
		{"withdrawn, but valid at the other time", "old@lab", aliceFP, nil, []KeyTime{old}, nil},
		{"not yet valid", "later@lab", aliceFP, nil, []KeyTime{now}, []string{"line 3", `valid-after="29990101Z"`}},
		{"both times named", "old@lab", aliceFP, nil, []KeyTime{now, {What: "then", At: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}}, []string{"at now (2026-06-01T00:00:00Z) and then (2025-01-01T00:00:00Z)"}},
		{"wrong key for the principal", "alice@lab", bobFP, nil, []KeyTime{now}, []string{"no line of " + file + " lists key " + bobFP + " for principal alice@lab"}},
		{"not for namespace git", "filer@lab", bobFP, nil, []KeyTime{now}, []string{"no line"}},
		{"a plain key is not judged by a cert-authority line", "carol@lab", bobFP, nil, []KeyTime{now}, []string{"no line of " + file + " lists key " + bobFP + " for principal carol@lab"}},
		{"a valid certificate under a pattern", "alice@lab", "SHA256:certkey", cert("alice@lab", y2020, y2030), []KeyTime{now}, nil},
		{"a certificate valid forever", "alice@lab", "SHA256:certkey", forever, []KeyTime{now, old}, nil},
		{"an expired certificate", "alice@lab", "SHA256:certkey", cert("alice@lab", y2020, y2021), []KeyTime{now, old},
			[]string{`certificate "id-alice@lab" (serial 7) of key SHA256:certkey for alice@lab is outside its validity at now (2026-06-01T00:00:00Z): it is valid from 2020-01-01T00:00:00Z, valid before 2021-01-01T00:00:00Z`}},
		{"a certificate not yet valid at the other time", "alice@lab", "SHA256:certkey", cert("alice@lab", y2021, y2030), []KeyTime{now, old},
			[]string{"outside its validity at published_at (2020-06-01T00:00:00Z)"}},
		{"valid before is excluded", "alice@lab", "SHA256:certkey", cert("alice@lab", y2020, now.At), []KeyTime{now}, []string{"outside its validity at now"}},
		{"a principal the pattern excludes", "mallory@lab", "SHA256:certkey", cert("mallory@lab", y2020, y2030), []KeyTime{now},
			[]string{"no cert-authority line of " + file + " lists authority " + bobFP + " (which signed the certificate of key SHA256:certkey) for principal mallory@lab"}},
		{"a certificate that does not name the principal", "alice@lab", "SHA256:certkey", cert("bob@lab", y2020, y2030), []KeyTime{now}, []string{"is not a user certificate naming alice@lab"}},
		{"a host certificate", "alice@lab", "SHA256:certkey", &sshsig.Certificate{Type: 2, Principals: []string{"alice@lab"}, ValidBefore: math.MaxUint64, CA: bobFP}, []KeyTime{now}, []string{"is not a user certificate"}},
		{"another authority", "alice@lab", "SHA256:certkey", &sshsig.Certificate{Type: 1, Principals: []string{"alice@lab"}, ValidBefore: math.MaxUint64, CA: aliceFP}, []KeyTime{now}, []string{"lists authority " + aliceFP}},
		{"a certificate under a withdrawn CA", "a@ca", "SHA256:certkey", cert("a@ca", y2020, y2030), []KeyTime{now}, []string{"certificate authority " + bobFP + " for a@ca is outside its window at now", "line 5"}},
		{"one of two authority lines valid", "carol@lab", "SHA256:certkey", cert("carol@lab", y2020, y2030), []KeyTime{now}, nil},
	} {
		err := CheckKeyWindow(file, tc.principal, tc.fp, tc.cert, tc.times...)
		if tc.err == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		for _, w := range tc.err {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, w)
			}
		}
	}
	if err := CheckKeyWindow(filepath.Join(t.TempDir(), "gone"), "alice@lab", aliceFP, nil, now); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("a missing file: err = %v, want it named", err)
	}
}
