// Package quicklooktest generates ci8 test captures: Gaussian noise with an
// optional tone or wideband burst in a time window.
//
// What it offers: Signal, a generated capture's description (rate, duration,
// noise, an optional tone or burst in a window), and BinHz and ToneAmpForBinSNR
// to place a tone in a known FFT bin at a known level.
package quicklooktest
