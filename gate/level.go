package gate

import (
	"errors"
	"fmt"
)

// Level is a risk level. The zero value is not a level, so a Level that was
// never set cannot pass for GREEN.
type Level int

// The levels in increasing order of risk.
const (
	Green Level = iota + 1
	Yellow
	Red
)

// Valid reports whether l is one of GREEN, YELLOW or RED.
func (l Level) Valid() bool { return l >= Green && l <= Red }

// String returns the level's name as written in a task file.
func (l Level) String() string {
	switch l {
	case Green:
		return "GREEN"
	case Yellow:
		return "YELLOW"
	case Red:
		return "RED"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel accepts exactly GREEN, YELLOW or RED (no case folding: the
// task header is a machine format).
func ParseLevel(s string) (Level, error) {
	switch s {
	case "GREEN":
		return Green, nil
	case "YELLOW":
		return Yellow, nil
	case "RED":
		return Red, nil
	}
	return 0, invalidLevel(s)
}

// MarshalText writes the level's name, so state and status JSON read well.
func (l Level) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, invalidLevel(l.String())
	}
	return []byte(l.String()), nil
}

// UnmarshalText parses a level name strictly.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// invalidLevel is a value that is not GREEN, YELLOW or RED.
func invalidLevel(value string) error {
	return fmt.Errorf("invalid risk level %q: want GREEN, YELLOW or RED", value)
}

// Flags are the task header fields that decide the minimum risk level.
type Flags struct {
	HardwareAccess bool // HARDWARE_ACCESS = YES
	RFRX           bool // RF_RX = YES
	RFTX           bool // RF_TX = YES
	AllowCommit    bool // ALLOW_COMMIT = YES
	PushResult     bool // ALLOW_PUSH = RX_RESULT_ONLY
}

// Derive returns the minimum level the flags demand: RED for RF TX; YELLOW
// for hardware access, RF RX, commits or result publication; GREEN otherwise.
func Derive(f Flags) Level {
	switch {
	case f.RFTX:
		return Red
	case f.HardwareAccess || f.RFRX || f.AllowCommit || f.PushResult:
		return Yellow
	}
	return Green
}

// Reasons names the fields that raise the level above GREEN, in header order,
// for messages and the approval prompt.
func Reasons(f Flags) []string {
	var r []string
	if f.HardwareAccess {
		r = append(r, "HARDWARE_ACCESS = YES")
	}
	if f.RFRX {
		r = append(r, "RF_RX = YES")
	}
	if f.RFTX {
		r = append(r, "RF_TX = YES")
	}
	if f.AllowCommit {
		r = append(r, "ALLOW_COMMIT = YES")
	}
	if f.PushResult {
		r = append(r, "ALLOW_PUSH = RX_RESULT_ONLY")
	}
	return r
}

// Effective returns the level a task runs at: its declared level, which may
// be higher than the derived one but never lower. A lower or invalid declared
// level is an error; the returned level is then the higher of the two, so a
// caller that ignores the error still errs on the safe side.
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

// ErrLevelTooLow matches (errors.Is) Effective's error for a declared level
// under the derived minimum: the two levels are the caller's own arguments.
var ErrLevelTooLow = errors.New("declared level lower than the derived minimum")

// levelTooLowError is a declared level under the derived minimum; it
// matches ErrLevelTooLow.
type levelTooLowError struct{ Declared, Derived Level }

func (e *levelTooLowError) Error() string {
	return fmt.Sprintf("declared level %s is lower than the derived minimum %s", e.Declared, e.Derived)
}

func (e *levelTooLowError) Is(target error) bool { return target == ErrLevelTooLow }
