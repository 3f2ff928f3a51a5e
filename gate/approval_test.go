package gate

import (
	"errors"
	"testing"
)

func TestRequiredPhrase(t *testing.T) {
	tests := []struct {
		level      Level
		rfTX       bool
		id         string
		wantPhrase string
		wantNeeded bool
	}{
		{Green, false, "T_001", "", false},
		{Yellow, false, "T_001", "", false},
		{Red, false, "RF001A_FW_FLASH", "AUTHORIZE RF001A_FW_FLASH", true},
		{Red, true, "RF001A_TX", "AUTHORIZE RF TX", true},
		// RF TX demands the TX phrase even if a caller passes a lower level.
		{Yellow, true, "RF001A_TX", "AUTHORIZE RF TX", true},
		{Green, true, "RF001A_TX", "AUTHORIZE RF TX", true},
		// An invalid level is treated as RED.
		{0, false, "T_001", "AUTHORIZE T_001", true},
		{Level(7), false, "T_001", "AUTHORIZE T_001", true},
	}
	for _, tt := range tests {
		phrase, needed := RequiredPhrase(tt.level, tt.rfTX, tt.id)
		if phrase != tt.wantPhrase || needed != tt.wantNeeded {
			t.Errorf("RequiredPhrase(%v, %v, %q) = %q, %v; want %q, %v",
				tt.level, tt.rfTX, tt.id, phrase, needed, tt.wantPhrase, tt.wantNeeded)
		}
	}
	if TXPhrase != "AUTHORIZE RF TX" {
		t.Fatalf("TXPhrase = %q", TXPhrase)
	}
}

func TestDescribeApproval(t *testing.T) {
	tests := []struct {
		level Level
		rfTX  bool
		want  string
	}{
		{Yellow, false, "A"},
		{Red, false, `A, then exactly "AUTHORIZE T_001"`},
		{Red, true, `A, then exactly "AUTHORIZE RF TX"`},
	}
	for _, tt := range tests {
		if got := DescribeApproval(tt.level, tt.rfTX, "T_001"); got != tt.want {
			t.Errorf("DescribeApproval(%v, %v) = %q, want %q", tt.level, tt.rfTX, got, tt.want)
		}
	}
}

func TestCheckRequiresApproval(t *testing.T) {
	tests := []struct {
		requires bool
		level    Level
		ok       bool
	}{
		{true, Green, true},
		{true, Yellow, true},
		{true, Red, true},
		{false, Green, true},
		{false, Yellow, false},
		{false, Red, false},
		{false, 0, false},
	}
	for _, tt := range tests {
		err := CheckRequiresApproval(tt.requires, tt.level)
		if (err == nil) != tt.ok {
			t.Errorf("CheckRequiresApproval(%v, %v) = %v, want ok=%v", tt.requires, tt.level, err, tt.ok)
		}
		var are *approvalRequiredError
		if !tt.ok && (!errors.As(err, &are) || are.Level != tt.level) {
			t.Errorf("CheckRequiresApproval(%v, %v) error %#v", tt.requires, tt.level, err)
		}
	}
}
