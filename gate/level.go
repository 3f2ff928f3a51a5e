package gate

import (
	"errors"
	"fmt"
)

// Level is a risk level; the zero value is not one, so it cannot pass for GREEN.
type Level int

const (
	Green Level = iota + 1
	Yellow
	Red
)

func (l Level) Valid() bool { return l >= Green && l <= Red }

var levelNames = [...]string{Green: "GREEN", Yellow: "YELLOW", Red: "RED"}

func (l Level) String() string {
	if l.Valid() {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel accepts exactly GREEN, YELLOW or RED (no case folding: the
// task header is a machine format).
func ParseLevel(s string) (Level, error) {
	for l := Green; l <= Red; l++ {
		if levelNames[l] == s {
			return l, nil
		}
	}
	return 0, invalidLevel(s)
}

// MarshalText writes the name, so state and status JSON read well.
func (l Level) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, invalidLevel(l.String())
	}
	return []byte(l.String()), nil
}

func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

func invalidLevel(value string) error {
	return fmt.Errorf("invalid risk level %q: want GREEN, YELLOW or RED", value)
}

type Flags struct {
	HardwareAccess bool // HARDWARE_ACCESS = YES
	RFRX           bool // RF_RX = YES
	RFTX           bool // RF_TX = YES
	AllowCommit    bool // ALLOW_COMMIT = YES
	PushResult     bool // ALLOW_PUSH = RX_RESULT_ONLY
}

// Derive returns the minimum level the flags demand.
func Derive(f Flags) Level {
	switch {
	case f.RFTX:
		return Red
	case f.HardwareAccess || f.RFRX || f.AllowCommit || f.PushResult:
		return Yellow
	}
	return Green
}

// Reasons names the fields that raise the level above GREEN, in header order.
func Reasons(f Flags) []string {
	var r []string
	for _, x := range []struct {
		set  bool
		name string
	}{
		{f.HardwareAccess, "HARDWARE_ACCESS = YES"}, {f.RFRX, "RF_RX = YES"}, {f.RFTX, "RF_TX = YES"},
		{f.AllowCommit, "ALLOW_COMMIT = YES"}, {f.PushResult, "ALLOW_PUSH = RX_RESULT_ONLY"},
	} {
		if x.set {
			r = append(r, x.name)
		}
	}
	return r
}

// Effective returns the declared level, never lower than the derived one.
// On error the higher of the two is returned, so a caller that ignores the
// error still errs on the safe side.
func Effective(declared, derived Level) (Level, error) {
	if !derived.Valid() {
		return Red, invalidLevel(derived.String())
	}
	if !declared.Valid() {
		return derived, invalidLevel(declared.String())
	}
	if declared < derived {
		return derived, &levelTooLowError{Declared: declared, Derived: derived}
	}
	return declared, nil
}

// ErrLevelTooLow matches Effective's error for a declared level under the derived one.
var ErrLevelTooLow = errors.New("declared level lower than the derived minimum")

type levelTooLowError struct{ Declared, Derived Level }

func (e *levelTooLowError) Error() string {
	return fmt.Sprintf("declared level %s is lower than the derived minimum %s", e.Declared, e.Derived)
}

func (e *levelTooLowError) Is(target error) bool { return target == ErrLevelTooLow }
