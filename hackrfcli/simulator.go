package hackrfcli

// SimulatorMarker is the line the HackRF simulator (hacksim) prints first,
// its one deliberate difference from Debian's tools (PROTOCOL#simulator).
// Only the whole line counts.
const SimulatorMarker = "hacksim: SIMULATED HackRF: rfhandoff's simulator, no radio (the samples are synthetic)"
