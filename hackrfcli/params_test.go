package hackrfcli

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-multierror"
)

func validRx() RxParams {
	return RxParams{FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, LNAGainDB: 16, VGAGainDB: 20,
		NumSamples: 240_000_000, OutPath: captureFile}
}

func validTx() TxParams {
	return TxParams{IQPath: txFile, FrequencyHz: 433_920_000, SampleRateHz: 2_000_000, NumSamples: 20_000_000}
}

func TestRxParamsValidate(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*RxParams)
		fields []string // every field reported, in order
	}{
		{"valid", func(*RxParams) {}, nil},
		{"edges", func(p *RxParams) {
			p.FrequencyHz, p.SampleRateHz, p.LNAGainDB, p.VGAGainDB, p.NumSamples = minFrequencyHz, maxSampleRateHz, 40, 62, 1
		}, nil},
		{"upper frequency edge", func(p *RxParams) { p.FrequencyHz, p.SampleRateHz = maxFrequencyHz, minSampleRateHz }, nil},
		{"serial suffix", func(p *RxParams) { p.Serial = "233e1a5f" }, nil},
		{"LNA not a multiple of 8", func(p *RxParams) { p.LNAGainDB = 7 }, []string{"RxParams.LNAGainDB"}},
		{"LNA too high", func(p *RxParams) { p.LNAGainDB = 48 }, []string{"RxParams.LNAGainDB"}},
		{"LNA negative", func(p *RxParams) { p.LNAGainDB = -8 }, []string{"RxParams.LNAGainDB"}},
		{"VGA odd", func(p *RxParams) { p.VGAGainDB = 3 }, []string{"RxParams.VGAGainDB"}},
		{"VGA too high", func(p *RxParams) { p.VGAGainDB = 64 }, []string{"RxParams.VGAGainDB"}},
		{"rate too low", func(p *RxParams) { p.SampleRateHz = 1_999_999 }, []string{"RxParams.SampleRateHz"}},
		{"rate too high", func(p *RxParams) { p.SampleRateHz = 20_000_001 }, []string{"RxParams.SampleRateHz"}},
		{"frequency too low", func(p *RxParams) { p.FrequencyHz = 999_999 }, []string{"RxParams.FrequencyHz"}},
		{"frequency too high (forceable only)", func(p *RxParams) { p.FrequencyHz = 7_000_000_000 }, []string{"RxParams.FrequencyHz"}},
		{"zero samples", func(p *RxParams) { p.NumSamples = 0 }, []string{"RxParams.NumSamples"}},
		{"relative path", func(p *RxParams) { p.OutPath = "capture.ci8" }, []string{"RxParams.OutPath"}},
		{"stdout", func(p *RxParams) { p.OutPath = "-" }, []string{"RxParams.OutPath"}},
		{"option-like path", func(p *RxParams) { p.OutPath = "-n5" }, []string{"RxParams.OutPath"}},
		{"empty path", func(p *RxParams) { p.OutPath = "" }, []string{"RxParams.OutPath"}},
		{"uppercase serial", func(p *RxParams) { p.Serial = "233E1A5F" }, []string{"RxParams.Serial"}},
		{"serial too long", func(p *RxParams) { p.Serial = strings.Repeat("a", 33) }, []string{"RxParams.Serial"}},
		{"option-like serial", func(p *RxParams) { p.Serial = "-r" }, []string{"RxParams.Serial"}},
		{"everything wrong at once", func(p *RxParams) { *p = RxParams{LNAGainDB: 7, VGAGainDB: 3, Serial: "x"} }, []string{
			"RxParams.FrequencyHz", "RxParams.SampleRateHz", "RxParams.LNAGainDB", "RxParams.VGAGainDB",
			"RxParams.NumSamples", "RxParams.Serial", "RxParams.OutPath"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validRx()
			tt.edit(&p)
			checkFields(t, p.Validate(), tt.fields)
		})
	}
}

func TestTxParamsValidate(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*TxParams)
		fields []string
	}{
		{"valid", func(*TxParams) {}, nil},
		{"max gain, amp", func(p *TxParams) { p.TXVGAGainDB, p.Amp = 47, true }, nil},
		{"odd gain is fine (1 dB steps)", func(p *TxParams) { p.TXVGAGainDB = 13 }, nil},
		{"gain too high", func(p *TxParams) { p.TXVGAGainDB = 48 }, []string{"TxParams.TXVGAGainDB"}},
		{"gain negative", func(p *TxParams) { p.TXVGAGainDB = -1 }, []string{"TxParams.TXVGAGainDB"}},
		{"stdin", func(p *TxParams) { p.IQPath = "-" }, []string{"TxParams.IQPath"}},
		{"unbounded", func(p *TxParams) { p.NumSamples = -1 }, []string{"TxParams.NumSamples"}},
		{"all wrong", func(p *TxParams) { *p = TxParams{TXVGAGainDB: 99} }, []string{
			"TxParams.IQPath", "TxParams.FrequencyHz", "TxParams.SampleRateHz", "TxParams.TXVGAGainDB", "TxParams.NumSamples"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validTx()
			tt.edit(&p)
			checkFields(t, p.Validate(), tt.fields)
		})
	}
}

func checkFields(t *testing.T, err error, fields []string) {
	t.Helper()
	if fields == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var me *multierror.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %T (%v), want *multierror.Error", err, err)
	}
	var got []string
	for _, e := range me.Errors {
		// "<Type>.<Field> = <value>: <reason>"
		field, rest, ok := strings.Cut(e.Error(), " = ")
		value, reason, ok2 := strings.Cut(rest, ": ")
		if !ok || !ok2 || value == "" || reason == "" {
			t.Errorf("uninformative error %q", e.Error())
		}
		got = append(got, field)
	}
	if !slices.Equal(got, fields) {
		t.Errorf("fields %q, want %q", got, fields)
	}
}

func TestArgv(t *testing.T) {
	rx := validRx()
	want := []string{"-r", captureFile, "-f", "433920000", "-s", "2000000", "-l", "16", "-g", "20", "-a", "0", "-n", "240000000", "-B"}
	if got := rx.argv(); !slices.Equal(got, want) {
		t.Errorf("rx argv %q\nwant     %q", got, want)
	}
	rx.Amp, rx.Serial = true, "233e1a5f"
	want = []string{"-r", captureFile, "-f", "433920000", "-s", "2000000", "-l", "16", "-g", "20", "-a", "1", "-n", "240000000", "-B", "-d", "233e1a5f"}
	if got := rx.argv(); !slices.Equal(got, want) {
		t.Errorf("rx argv %q\nwant     %q", got, want)
	}
	rx.Trigger = true
	want = append(want, "-H")
	if got := rx.argv(); !slices.Equal(got, want) {
		t.Errorf("rx argv %q\nwant     %q", got, want)
	}
	tx := validTx()
	tx.TXVGAGainDB, tx.Amp, tx.Serial = 10, true, "abc"
	want = []string{"-t", txFile, "-f", "433920000", "-s", "2000000", "-x", "10", "-a", "1", "-n", "20000000", "-d", "abc"}
	if got := tx.Argv(); !slices.Equal(got, want) {
		t.Errorf("tx argv %q\nwant     %q", got, want)
	}
	if tx.duration() != 10*time.Second || rx.Bytes() != 480_000_000 {
		t.Errorf("duration %v bytes %d", tx.duration(), rx.Bytes())
	}
}
