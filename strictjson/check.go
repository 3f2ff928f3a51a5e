package strictjson

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The value checks every table's Checks are built from. Each accepts one JSON kind only,
// stores an acceptable value in dst, and returns "" or "must be ..., got ...".

// Matcher is a value pattern (an ident.Rule or a *regexp.Regexp).
type Matcher interface{ MatchString(string) bool }

// Int accepts an integer literal only: 1.0, 1e0 and "1" are not.
func Int(v *Node) (int64, string) {
	if v.Kind != Number {
		return 0, "must be an integer, got " + v.Describe()
	}
	if strings.ContainsAny(v.Text, ".eE") {
		return 0, "must be an integer written without a fraction or exponent, got " + v.Describe()
	}
	n, err := strconv.ParseInt(v.Text, 10, 64)
	if err != nil || n > MaxSafeInt || n < -MaxSafeInt {
		return 0, fmt.Sprintf("must be an integer within ±%d, got %s", int64(MaxSafeInt), v.Describe())
	}
	return n, ""
}

func Range(v *Node, lo, hi int64, dst *int64) string {
	n, why := Int(v)
	if why != "" {
		return why
	}
	if n < lo || n > hi {
		return fmt.Sprintf("must be %d to %d, got %d", lo, hi, n)
	}
	*dst = n
	return ""
}

func Boolean(v *Node, dst *bool) string {
	if v.Kind != Bool {
		return "must be true or false, got " + v.Describe()
	}
	*dst = v.Bool
	return ""
}

// Str accepts a string; what names what is expected.
func Str(v *Node, what string) (string, string) {
	if v.Kind != String {
		return "", "must be " + what + ", got " + v.Describe()
	}
	return v.Text, ""
}

// Match accepts a string of the pattern re.
func Match(v *Node, re Matcher, what string, dst *string) string {
	s, why := Str(v, what)
	if why != "" {
		return why
	}
	if !re.MatchString(s) {
		return "must be " + what + ", got " + v.Describe()
	}
	*dst = s
	return ""
}

// Time accepts a string of the RFC 3339 shape re that is a real time:
// the pattern fixes the shape, time.Parse and the offset's range the
// values (no 24:00, no leap second, no +24:00).
func Time(v *Node, re Matcher, what string, dst *time.Time) string {
	var s string
	if why := Match(v, re, what, &s); why != "" {
		return why
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || !offsetInRange(s) {
		return "must be " + what + ", got " + v.Describe() + " (out of range)"
	}
	*dst = t
	return ""
}

// offsetInRange checks what time.Parse lets through: an offset's hours
// must be 00–23 and its minutes 00–59 (RFC 3339 time-numoffset).
func offsetInRange(s string) bool {
	if strings.HasSuffix(s, "Z") || len(s) < 6 {
		return true
	}
	off := s[len(s)-5:] // hh:mm, after the pattern matched
	hoursOK := off[0] < '2' || off[0] == '2' && off[1] <= '3'
	return hoursOK && off[3] <= '5'
}
