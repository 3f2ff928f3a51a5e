package config

import (
	"os"
	"path/filepath"
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
	}, "\n")
	if err := os.WriteFile(file, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	now := KeyTime{What: "now", At: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	old := KeyTime{What: "published_at", At: time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		name, principal, fp string
		times               []KeyTime
		err                 []string // substrings; nil for no error
	}{
		{"listed, no limit", "alice@lab", aliceFP, []KeyTime{now}, nil},
		{"another principal of the same line", "new@lab", aliceFP, []KeyTime{now, old}, nil},
		{"withdrawn, now", "old@lab", aliceFP, []KeyTime{now}, []string{"key " + aliceFP + " for old@lab is outside its window at now (2026-06-01T00:00:00Z)", file + " line 1", `valid-before="20210101Z"`}},
		{"withdrawn, but valid at the other time", "old@lab", aliceFP, []KeyTime{old}, nil},
		{"not yet valid", "later@lab", aliceFP, []KeyTime{now}, []string{"line 3", `valid-after="29990101Z"`}},
		{"both times named", "old@lab", aliceFP, []KeyTime{now, {What: "then", At: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}}, []string{"at now (2026-06-01T00:00:00Z) and then (2025-01-01T00:00:00Z)"}},
		{"wrong key for the principal", "alice@lab", bobFP, []KeyTime{now}, []string{"no line of " + file + " lists key " + bobFP + " for principal alice@lab"}},
		{"not for namespace git", "filer@lab", bobFP, []KeyTime{now}, []string{"no line"}},
		{"a certificate under a withdrawn CA", "*@ca", "SHA256:certkey", []KeyTime{now}, []string{"certificate authority " + bobFP, "line 5"}},
	} {
		err := CheckKeyWindow(file, tc.principal, tc.fp, tc.times...)
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
	if err := CheckKeyWindow(filepath.Join(t.TempDir(), "gone"), "alice@lab", aliceFP, now); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("a missing file: err = %v, want it named", err)
	}
}
