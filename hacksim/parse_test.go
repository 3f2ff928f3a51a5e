package hacksim

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestGetopt(t *testing.T) {
	type opt struct {
		c   byte
		arg string
		msg string
	}
	tests := []struct {
		args string
		want []opt
	}{
		{"-r f -n 10", []opt{{'r', "f", ""}, {'n', "10", ""}}},
		{"-rf -n10", []opt{{'r', "f", ""}, {'n', "10", ""}}},
		{"-Bn 10", []opt{{'B', "", ""}, {'n', "10", ""}}},
		{"-BRn10", []opt{{'B', "", ""}, {'R', "", ""}, {'n', "10", ""}}},
		{"operand -B", []opt{{'B', "", ""}}},                 // GNU permutation
		{"-B -- -n 10", []opt{{'B', "", ""}}},                // "--" ends the options
		{"-r -n", []opt{{'r', "-n", ""}}},                    // an argument may look like an option
		{"-Z", []opt{{'?', "", "p: invalid option -- 'Z'"}}}, // unknown
		{"-BZ", []opt{{'B', "", ""}, {'?', "", "p: invalid option -- 'Z'"}}},
		{"-n", []opt{{'?', "", "p: option requires an argument -- 'n'"}}},
		{"-?", []opt{{'?', "", ""}}},
		{"- -B", []opt{{'B', "", ""}}}, // "-" alone is an operand
	}
	for _, tt := range tests {
		g := &getopt{prog: "p", args: strings.Fields(tt.args), optstring: transferOptstring}
		var got []opt
		for {
			c, arg, msg, ok := g.next()
			if !ok {
				break
			}
			got = append(got, opt{c, arg, msg})
			if c == '?' {
				break
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %+v, want %+v", tt.args, got, tt.want)
		}
	}
}

func TestGetoptLong(t *testing.T) {
	tests := []struct {
		args    string
		c       byte
		arg     string
		message string
	}{
		{"--clkin", '?', "", "hackrf_clock: option '--clkin' requires an argument"},
		{"--clkin 1", 'i', "1", ""},
		{"--device=abc", 'd', "abc", ""},
		{"--all", 'a', "", ""},
		{"--all=1", '?', "", "hackrf_clock: option '--all' doesn't allow an argument"},
		{"--bogus", '?', "", "hackrf_clock: unrecognized option '--bogus'"},
	}
	for _, tt := range tests {
		g := &getopt{prog: "hackrf_clock", args: strings.Fields(tt.args), optstring: "r:aio:d:h?", long: clockLong}
		c, arg, msg, ok := g.next()
		if !ok || c != tt.c || arg != tt.arg || msg != tt.message {
			t.Errorf("%q: %q %q %q %v", tt.args, c, arg, msg, ok)
		}
	}
}

func TestParseUint(t *testing.T) {
	tests := []struct {
		s    string
		bits int
		want uint64
		ok   bool
	}{
		{"16", 32, 16, true},
		{"0x10", 32, 16, true},
		{"0b101", 32, 5, true},
		{"0x", 32, 0, false}, // too short for a prefix: "0x" in base 10 fails
		{"08", 32, 8, true},
		{"", 32, 0, false},
		{"abc", 32, 0, false},
		{"12abc", 32, 0, false},
		{" 7", 32, 7, true},
		{"-1", 32, math.MaxUint32, true},
		{"4294967296", 32, 0, true}, // truncated to 32 bits
		{"99999999999999999999", 64, math.MaxUint64, true},
		{"9223372036854775808", 64, 1 << 63, true},
	}
	for _, tt := range tests {
		got, ok := parseUint(tt.s, tt.bits)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseUint(%q, %d) = %d, %v; want %d, %v", tt.s, tt.bits, got, ok, tt.want, tt.ok)
		}
	}
}

func TestStrtod(t *testing.T) {
	tests := []struct {
		s    string
		want float64
		ok   bool
	}{
		{"433920000", 433920000, true},
		{"433.92e6", 433920000, true},
		{"2e6Hz", 2e6, true},
		{"1e", 1, true},
		{".5", 0.5, true},
		{"-3", -3, true},
		{"abc", 0, false},
		{"", 0, false},
		{".", 0, false},
		{"inf", math.Inf(1), true},
	}
	for _, tt := range tests {
		got, ok := strtod(tt.s)
		if got != tt.want || ok != tt.ok {
			t.Errorf("strtod(%q) = %v, %v; want %v, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCFormat(t *testing.T) {
	tests := []struct {
		v           float64
		width, prec int
		want        string
	}{
		{3.9, 4, 1, " 3.9"},
		{40.0, 4, 1, "40.0"},
		{math.NaN(), 3, 1, "-nan"},
		{math.Inf(-1), 3, 1, "-inf"},
		{math.Inf(1), 4, 1, " inf"},
		{2.0391234, 5, 5, "2.03912"},
		{-38.25, 3, 1, "-38.2"}, // round half to even on the exact binary value, as glibc
	}
	for _, tt := range tests {
		if got := cf(tt.v, tt.width, tt.prec); got != tt.want {
			t.Errorf("cf(%v, %d, %d) = %q, want %q", tt.v, tt.width, tt.prec, got, tt.want)
		}
	}
}

func TestBasebandFilter(t *testing.T) {
	for in, want := range map[uint32]uint32{
		1750000: 1750000, 1000000: 1750000, 3000000: 2500000, 5000000: 5000000,
		27999999: 24000000, 28000000: 28000000, 99000000: 28000000,
	} {
		if got := computeBasebandFilterBW(in); got != want {
			t.Errorf("bw(%d) = %d, want %d", in, got, want)
		}
	}
}

func FuzzParseTransferArgs(f *testing.F) {
	for _, s := range []string{
		"-r\x00/tmp/x\x00-f\x00433920000\x00-s\x002000000\x00-n\x0010\x00-B",
		"-t\x00f\x00-x\x0047\x00-a\x001\x00-R",
		"-rf\x00-Bn0x10\x00-C\x004294967295",
		"-d\x00" + Serial + "\x00-r\x00x\x00-b\x001.75e6",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, joined string, nodevice bool) {
		var warn bytes.Buffer
		x, eu := parseTransfer("hackrf_transfer", strings.Split(joined, "\x00"), modes{nodevice: nodevice}, &warn)
		if (x == nil) == (eu == nil) {
			t.Fatalf("x %v and error %v", x, eu)
		}
		if eu != nil {
			if eu.code != 0 && eu.code != 1 {
				t.Fatalf("exit code %d", eu.code)
			}
			return
		}
		if nodevice {
			t.Fatal("a device opened in nodevice mode")
		}
		if x.sampleRate == 0 || x.receive == x.transmit || x.samples >= samplesMax {
			t.Fatalf("accepted %+v", x)
		}
	})
}
