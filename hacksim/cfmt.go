package hacksim

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// cf formats v like C's printf("%<width>.<prec>f") with glibc, whose
// special values are "inf", "-inf" and "-nan" (0.0/0.0 carries the sign
// bit on x86-64, and the tool's empty-interval power is exactly that).
func cf(v float64, width, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if c, ok := map[string]string{"NaN": "-nan", "+Inf": "inf", "-Inf": "-inf"}[s]; ok {
		s = c
	}
	return fmt.Sprintf("%*s", width, s)
}

// parseUint is the tools' parse_u32/parse_u64: an optional 0x or 0b prefix
// (only when longer than two characters), then strtoull in that base, which
// must consume the whole string. Like strtoull it takes leading spaces and a
// sign (a minus wraps around) and saturates on overflow.
func parseUint(s string, bits int) (uint64, bool) {
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, s = 16, s[2:]
		case 'b', 'B':
			base, s = 2, s[2:]
		}
	}
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if base == 16 && len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	// ParseUint saturates on overflow as strtoull does, and fails on "".
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	if neg {
		v = -v
	}
	if bits == 32 {
		v = uint64(uint32(v))
	}
	return v, true
}

// cNumber is the longest leading decimal number the way C's strtod reads
// the tools' frequency arguments ("433.92e6" and "433920000junk" both
// work): an exponent only with digits, inf or nan in any case.
var cNumber = regexp.MustCompile(`^[+-]?((?i:inf|nan)|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)`)

// strtod reads a number as C's strtod does for the tools. It fails only
// when no number starts the string.
func strtod(s string) (float64, bool) {
	num := cNumber.FindString(strings.TrimLeft(s, " \t\n\v\f\r"))
	v, err := strconv.ParseFloat(num, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return v, true
}

// toInt64 and toUint32 are C's casts from double, kept in range instead of
// undefined.
func toInt64(v float64) int64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= math.MaxInt64:
		return math.MaxInt64
	case v <= math.MinInt64:
		return math.MinInt64
	}
	return int64(v)
}

func toUint32(v float64) uint32 {
	switch {
	case math.IsNaN(v) || v <= 0:
		return 0
	case v >= math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(v)
}
