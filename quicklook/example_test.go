package quicklook_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"time"

	"rfhandoff/internal/quicklooktest"
	"rfhandoff/quicklook"
)

// The capture executor hashes the file as it grows and tees the same bytes
// into the Analyzer, so COMPLETE needs no second pass over the file.
func Example() {
	capture := quicklooktest.Signal{Rate: 250_000, Duration: 6 * time.Second, Sigma: 10, Seed: 1,
		ToneHz: 50_000, ToneAmp: 40, ToneFrom: 2 * time.Second, ToneTo: 4 * time.Second}.Bytes()

	an := quicklook.NewAnalyzer(quicklook.Params{
		SampleRateHz: 250_000, FrequencyHz: 433_920_000, PlannedDuration: 6 * time.Second,
	})
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(h, an), bytes.NewReader(capture)); err != nil {
		panic(err)
	}
	a := an.Finish()
	d := quicklook.Detect(a, 10, 500*time.Millisecond)
	fmt.Println(d.RFTXObserved())
	fmt.Printf("burst from %.1f s to %.1f s\n", d.Start.Seconds(), d.End.Seconds())
	// quicklook.WritePNGFile(path+".png", a, d, quicklook.Meta{TaskID: ..., Start: ...})
	// and d.Notes() for RX_RESULT.md.

	// Output:
	// EXPECTED_EXTERNAL_TX
	// burst from 2.0 s to 4.1 s
}
