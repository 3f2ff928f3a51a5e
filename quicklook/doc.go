// Package quicklook looks at a ci8 capture while it is being written: a
// spectrogram, a mean spectrum and a band power series (Analyzer), an energy
// detector for rf_tx_observed (Detect) and a quick-look PNG (RenderPNG).
//
// Levels are in dBFS, where 0 dBFS is a full-scale complex tone
// (|I+jQ| = 128 counts): per FFT bin for the spectrogram and spectrum, and
// the mean sample power |x|² for the band power series (from the FFT bins,
// by Parseval's theorem). The cost is flat in the data rate: at most
// maxFramesPerRow frames, evenly spread, are transformed per row. Levels never go
// below minDBFS, so an all-zero capture reports minDBFS instead of -Inf and
// no NaN ever reaches a caller.
//
// The detector: Hann-windowed 1024-bin FFT frames averaged into 512 rows
// over the planned duration, at most 64 frames per row. Each bin's noise
// floor is its 20th-percentile level over the rows; a row is a burst row
// when a bin, or the total band power, stands capture.detect_threshold_db
// over its floor; a burst is a run of burst rows lasting
// capture.detect_min_s, and sets rf_tx_observed = EXPECTED_EXTERNAL_TX.
//
// What it offers: NewAnalyzer (an io.Writer fed while the capture is written),
// Detect, RenderPNG and WritePNGFile, and the SigMF metadata types.
package quicklook
