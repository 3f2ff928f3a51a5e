// Package hackrfcli runs the HackRF command-line tools (hackrf_info,
// hackrf_clock, hackrf_transfer) through the audited exec.Runner and parses
// what they print.
//
// The parsers read the real tools' bytes: the stable Debian package
// (2022.09.1, "MiB" progress lines) and upstream's newest releases
// (v2026.01.x, "MB" progress lines, extra hackrf_info lines). Transcripts of
// both live in testdata/transcripts, each noting whether it is verbatim or
// assembled from the tools' format strings.
//
// Two quirks shape the API:
//   - hackrf_transfer exits 0 after printing its usage for an unknown option
//     or a missing option argument, and silently ignores out-of-range gains.
//     RxParams and TxParams are therefore validated in Go before anything
//     runs, and an exit status of 0 is trusted only when the tool went
//     through its end-of-run sequence.
//   - hackrf_info and hackrf_clock print results and most failures on stdout,
//     hackrf_transfer prints everything except its usage on stderr. Parsers
//     take both streams and the exit code.
//
// "No HackRF" in any form (hackrf_info's "No HackRF boards found.", a
// "hackrf_open() failed: HackRF not found (-5)" line) matches ErrNoDevice
// with errors.Is.
//
// rfhandoff's own simulator (package hacksim) prints SimulatorMarker first
// on every run; ParseInfo reports it as Info.Simulated and a transfer as
// TransferStats.Simulated (PROTOCOL#simulator). Client.Info also fills Info.Path,
// the executable that answered.
//
// What it offers: Client (Info, Clock, StartReceive, Transmit) over the exec
// runner, the pure parsers of each tool's output (ParseInfo, ParseClock, the
// transfer line parser), SimulatorMarker, and ErrNoDevice and FirmwareError
// for the callers that branch on them.
package hackrfcli
