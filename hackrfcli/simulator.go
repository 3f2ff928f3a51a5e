package hackrfcli

// SimulatorMarker is the line rfhandoff's HackRF simulator (package
// hacksim) prints first on every run, where the real tool prints its
// results; it is the simulator's one deliberate difference from Debian's
// tools (PROTOCOL#simulator). Only the whole line counts.
const SimulatorMarker = "hacksim: SIMULATED HackRF: rfhandoff's simulator, no radio (the samples are synthetic)"
