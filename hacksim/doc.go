// Package hacksim is the HackRF simulator of PROTOCOL#simulator: run under the name
// hackrf_info, hackrf_clock or hackrf_transfer (a symlink to or copy of the
// rfhandoff binary), it behaves like that tool with a healthy HackRF One
// attached. It never opens a USB device.
//
// # Which version
//
// It emulates Debian's hackrf 2022.09.1 (host tools, libhackrf 0.7 and
// firmware 2022.09.1, USB API 1.06) on a HackRF One r8, because CI installs
// Debian's package: the same lines on the same streams with the same exit
// codes, including the quirks (hackrf_info prints everything on stdout and
// exits 1 without a board; getopt errors exit 0 after the usage; progress
// lines say "MiB" but count decimal megabytes). The simulated board's serial
// is Serial.
//
// # hackrf_transfer
//
// -r FILE writes ci8 samples (interleaved signed 8-bit I/Q) in real time at
// the requested rate, in 262144-byte USB blocks, with the per-second
// progress line on stderr; -n N stops after exactly N samples (2·N bytes)
// with the tool's end-of-run sequence, SIGINT/SIGTERM with "Caught signal
// N" and the same sequence (exit 0 in both cases). -B adds the buffer
// statistics. The samples are Gaussian noise (σ = 3 LSB, about -29.5 dBFS
// as the tool computes it) from a seeded math/rand/v2 PCG, never zeros:
// HACKRF_SIM_SEED (SeedEnv) fixes the seed, else each run draws its own
// from the time, its pid and the output path, so two captures differ. -t FILE reads and "sends" the file at the
// sample rate for the bounded -n (or to its end) and prints the TX lines.
//
// # What it says it is
//
// The one deliberate difference from Debian's tools on every run: the
// first line is hackrfcli.SimulatorMarker,
//
//	hacksim: SIMULATED HackRF: rfhandoff's simulator, no radio (the samples are synthetic)
//
// on the stream where that tool prints its results: stdout for
// hackrf_info and hackrf_clock, stderr for hackrf_transfer (its stdout
// may be the samples). Everything after it is the real tool's bytes. The
// parsers report it (hackrfcli.Info.Simulated,
// hackrfcli.TransferStats.Simulated), and rx capture refuses a simulated
// capture unless the policy says simulation is intended ([tools]
// allow_simulator, PROTOCOL#simulator). IsSimulator is the second, independent
// sign: a resolved tool path that is the running rfhandoff executable.
//
// A smaller difference: the real tool, interrupted right after its
// one-second tick, may see an empty interval and then reports a stall and
// exits 1. The simulator lets the next USB block arrive before it handles a
// signal, as if the signal had come a few milliseconds later, so an
// interrupted capture always ends the common way (exit 0).
//
// Not simulated (refused with a "hacksim:" line on stderr and exit 1):
// -c (CW transmit), -w, -S, -i/-o/-m (explicit tuning), -F, "-t -",
// and hackrf_clock -r/-a (register dumps).
//
// # HACKRF_SIM
//
// A comma-separated list of modes (an unknown one is an error, exit 2):
//
//   - nodevice: every tool prints its real no-device output and exit code.
//   - noclock: hackrf_clock -i reports "no clock signal detected".
//   - stall: after a third of the -n samples (5 s of samples without -n) no
//     more blocks arrive; the next empty one-second interval gives the
//     tool's "Couldn't transfer any bytes for one second." and exit 1
//     (hackrf_is_streaming() still HACKRF_TRUE: a hung device).
//   - exit1: like stall but the device is gone: the same stall exit 1, with
//     "streaming thread encountered an error (-1002)" and the failed
//     stop/close calls a disconnected HackRF produces.
//   - fast: no pacing; blocks are written as fast as the disk takes them.
//   - oldfw: the board runs firmware 2021.03.1 (USB API 1.04): hackrf_info
//     prints no revision or platform lines, hackrf_clock -i fails with
//     "hackrf_get_clkin_status() failed: feature not supported by installed
//     firmware (-1005)" (exit 1), and hackrf_transfer -B prints the same
//     failure for hackrf_get_m0_state() instead of its counters.
//   - fw2023: the board is a HackRF One r6 on firmware 2023.01.1 (USB API
//     1.07), which ignores -H (greatscottgadgets/hackrf#1292): hackrf_info
//     says so, and hackrf_transfer -H streams at once whatever
//     HACKRF_SIM_TRIGGER says.
//   - slowarm: hackrf_transfer -H arms 1.2 s later than the same run
//     without -H starts streaming (a board slow to arm), its "Stop with
//     Ctrl-C" as late, as the real tool prints it once armed: a capture that
//     rehearsed its start-up without -H arms past its window and starts
//     on the edge after START_AT.
//   - slowstop: hackrf_transfer takes 2 s from SIGINT/SIGTERM to its end
//     sequence, as a board slow to stop streaming does: what waits for it
//     must wait that long before it kills.
//   - burst: a complex tone 200 kHz above the centre frequency, 25 dB above
//     the total noise power, during the middle third of the -n samples
//     (samples 5 s to 10 s without -n).
//
// # HACKRF_SIM_ONAIR
//
// "<delay_ms>:<level_db>:<path>" (onair.go): the demo sandbox's coupling
// of its fake transmission to each receiver. Before each USB block the
// receiving simulator looks for the on-air file at path (OnAir, written
// by WriteOnAir); once it is there, the burst tone (burstOffsetHz above the
// file's frequency, burstDB + level_db over the noise) is added to the
// samples taken during [start + delay, start + delay + duration), sample k
// being taken at the stream's start + k/rate, when it lies in the band.
// It is read once; a bad file is reported once on stderr and ignored.
// The file's start is true time (below); sample k's true time is its
// host-clock time less HACKRF_SIM_PPS_OFFSET_NS. With HACKRF_SIM_DELAY_NS
// set (DelayEnv, added to delay_ms) the node hears the chirp (chirp.go)
// instead of the tone: a sweep over half the sample rate every
// millisecond, each millisecond at its own phase, centred on the
// transmission's frequency and heard only when the whole sweep is in the
// band, computed at each sample's own time minus the delay, so a delay of
// a fraction of a sample shows. A fixed HACKRF_SIM_SEED gives every node
// the same noise: give nodes different seeds, or none.
//
// # Time: -H, the trigger input and the host clock
//
// The machine's clock stands for the node's host clock, which is
// HACKRF_SIM_PPS_OFFSET_NS (PPSOffsetEnv, signed nanoseconds) ahead of
// true time. hackrf_transfer -H prints "call hackrf_set_hw_sync_mode(1)",
// arms, and takes sample 0 exactly at the trigger input's first rising
// edge after arming, sample k at the edge + k/rate; no block arrives
// before it. As in the real tool, a one-second tick with no data prints
// "Waiting for trigger..." instead of the progress line, and -H disables
// the stall exit for the whole run (so stall never ends it; exit1, a
// vanished device, ends it at the next tick with exit 0, because the real
// loop runs only while hackrf_is_streaming() is true). HACKRF_SIM_TRIGGER (TriggerEnv)
// chooses the input: pps (the default: an edge at every whole second of
// true time, so at the host clock's whole seconds plus the offset), none
// (nothing connected: only -n reached after an edge or a signal ends the
// run, so in practice a signal), ignore (firmware that ignores -H: data at
// once). An unknown or malformed value of any of the three variables is an
// error (exit 2), every one named.
//
// What it offers: IsTool and Main, which the binary's entry point calls when it
// runs under a tool's name; IsSimulator, whether a tool's path is this
// rfhandoff binary; OnAir, WriteOnAir and OnAirEnv for the demo's
// on-air file; TriggerEnv, PPSOffsetEnv and DelayEnv for a node's time.
package hacksim
