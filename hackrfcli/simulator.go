package hackrfcli

// SimulatorMarker is the line rfhandoff's HackRF simulator (package
// hacksim) prints first on every run, where the real tool prints its
// results: stdout for hackrf_info and hackrf_clock, stderr for
// hackrf_transfer. No real tool prints it; it is the simulator's one
// deliberate difference from Debian's tools (PROTOCOL#simulator). ParseInfo
// reports it as Info.Simulated, a transfer as TransferStats.Simulated.
// Only the whole line counts.
const SimulatorMarker = "hacksim: SIMULATED HackRF: rfhandoff's simulator, no radio (the samples are synthetic)"
