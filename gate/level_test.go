package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want Level
		ok   bool
	}{
		{"GREEN", Green, true},
		{"YELLOW", Yellow, true},
		{"RED", Red, true},
		{"red", 0, false},
		{"Red", 0, false},
		{" RED", 0, false},
		{"RED ", 0, false},
		{"", 0, false},
		{"ORANGE", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseLevel(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if want := fmt.Sprintf("invalid risk level %q: want GREEN, YELLOW or RED", tt.in); !tt.ok && (err == nil || err.Error() != want) {
			t.Errorf("ParseLevel(%q) error %v, want %q", tt.in, err, want)
		}
	}
}

func TestLevelOrderAndString(t *testing.T) {
	if !(Green < Yellow && Yellow < Red) {
		t.Fatal("levels out of order")
	}
	for _, l := range []Level{Green, Yellow, Red} {
		back, err := ParseLevel(l.String())
		if err != nil || back != l {
			t.Errorf("round trip of %v: %v, %v", l, back, err)
		}
	}
	var zero Level
	if zero.Valid() || Level(4).Valid() {
		t.Error("zero or out-of-range level reported valid")
	}
	if got := Level(9).String(); got != "Level(9)" {
		t.Errorf("String of invalid level = %q", got)
	}
}

func TestLevelJSON(t *testing.T) {
	b, err := json.Marshal(map[string]Level{"l": Yellow})
	if err != nil || string(b) != `{"l":"YELLOW"}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
	var m map[string]Level
	if err := json.Unmarshal([]byte(`{"l":"RED"}`), &m); err != nil || m["l"] != Red {
		t.Fatalf("unmarshal: %v, %v", m, err)
	}
	if err := json.Unmarshal([]byte(`{"l":"red"}`), &m); err == nil {
		t.Fatal("lowercase level accepted")
	}
	if _, err := json.Marshal(Level(0)); err == nil {
		t.Fatal("zero level marshalled")
	}
}

func TestDerive(t *testing.T) {
	tests := []struct {
		name    string
		f       Flags
		want    Level
		reasons []string
	}{
		{"nothing", Flags{}, Green, nil},
		{"hardware", Flags{HardwareAccess: true}, Yellow, []string{"HARDWARE_ACCESS = YES"}},
		{"rx", Flags{HardwareAccess: true, RFRX: true}, Yellow, []string{"HARDWARE_ACCESS = YES", "RF_RX = YES"}},
		{"commit", Flags{AllowCommit: true}, Yellow, []string{"ALLOW_COMMIT = YES"}},
		{"push result", Flags{PushResult: true}, Yellow, []string{"ALLOW_PUSH = RX_RESULT_ONLY"}},
		{"tx", Flags{HardwareAccess: true, RFTX: true}, Red, []string{"HARDWARE_ACCESS = YES", "RF_TX = YES"}},
		{"tx alone", Flags{RFTX: true}, Red, []string{"RF_TX = YES"}},
		{"everything", Flags{true, true, true, true, true}, Red,
			[]string{"HARDWARE_ACCESS = YES", "RF_RX = YES", "RF_TX = YES", "ALLOW_COMMIT = YES", "ALLOW_PUSH = RX_RESULT_ONLY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Derive(tt.f); got != tt.want {
				t.Errorf("Derive = %v, want %v", got, tt.want)
			}
			if got := Reasons(tt.f); !reflect.DeepEqual(got, tt.reasons) {
				t.Errorf("Reasons = %q, want %q", got, tt.reasons)
			}
		})
	}
}

func TestEffective(t *testing.T) {
	tests := []struct {
		declared, derived, want Level
		tooLow, invalid         bool
	}{
		{Green, Green, Green, false, false},
		{Yellow, Green, Yellow, false, false}, // a higher declaration is kept
		{Red, Yellow, Red, false, false},
		{Red, Red, Red, false, false},
		{Green, Yellow, Yellow, true, false},
		{Yellow, Red, Red, true, false},
		{Green, Red, Red, true, false},
		{0, Yellow, Yellow, false, true},
		{Green, 0, Red, false, true},
	}
	for _, tt := range tests {
		got, err := Effective(tt.declared, tt.derived)
		if got != tt.want {
			t.Errorf("Effective(%v, %v) = %v, want %v", tt.declared, tt.derived, got, tt.want)
		}
		var low *levelTooLowError
		if errors.As(err, &low) != tt.tooLow {
			t.Errorf("Effective(%v, %v) err = %v, want too-low %v", tt.declared, tt.derived, err, tt.tooLow)
		}
		if errors.Is(err, ErrLevelTooLow) != tt.tooLow {
			t.Errorf("Effective(%v, %v) err = %v, want ErrLevelTooLow %v", tt.declared, tt.derived, err, tt.tooLow)
		}
		if low != nil && (low.Declared != tt.declared || low.Derived != tt.derived) {
			t.Errorf("levelTooLowError = %+v", low)
		}
		if invalid := err != nil && strings.HasPrefix(err.Error(), "invalid risk level "); invalid != tt.invalid {
			t.Errorf("Effective(%v, %v) err = %v, want invalid %v", tt.declared, tt.derived, err, tt.invalid)
		}
	}
}
