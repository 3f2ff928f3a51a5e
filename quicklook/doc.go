// Package quicklook looks at a ci8 capture while it is being written: a
// spectrogram, a mean spectrum and a band power series (Analyzer), an energy
// detector for rf_tx_observed (Detect) and a quick-look PNG (RenderPNG).
//
// Levels are in dBFS, where 0 dBFS is a full-scale complex tone
// (|I+jQ| = 128 counts): per FFT bin for the spectrogram and spectrum, and
// the mean sample power |x|² for the band power series (by Parseval's
// theorem). Levels never go below minDBFS, so no -Inf or NaN reaches a caller.
//
// The detector: Hann-windowed 1024-bin FFT frames averaged into 512 rows
// over the planned duration, at most 64 frames per row. Each bin's noise
// floor is its 20th-percentile level over the rows; a row is a burst row
// when a bin, or the total band power, stands capture.detect_threshold_db
// over its floor; a burst is a run of burst rows lasting
// capture.detect_min_s, and sets rf_tx_observed = EXPECTED_EXTERNAL_TX.
package quicklook
