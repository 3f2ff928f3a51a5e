// Package hackrfcli runs the HackRF command-line tools (hackrf_info,
// hackrf_clock, hackrf_transfer) through the audited exec.Runner and parses
// what they print.
//
// The parsers read the real tools' bytes, from Debian's 2022.09.1 to
// upstream's v2026.01.x (transcripts in testdata/transcripts).
//
// Two quirks shape the API:
//   - hackrf_transfer exits 0 after printing its usage for a bad option and
//     silently ignores out-of-range gains, so RxParams and TxParams are
//     validated in Go first, and exit 0 is trusted only after the tool's
//     end-of-run sequence.
//   - hackrf_info and hackrf_clock print most things on stdout,
//     hackrf_transfer on stderr; parsers take both streams and the exit code.
//
// "No HackRF" in any form matches ErrNoDevice with errors.Is. The
// simulator's SimulatorMarker shows as Info.Simulated and
// TransferStats.Simulated (PROTOCOL#simulator).
package hackrfcli
