package hacksim

import (
	"fmt"
	"io"
	"slices"
)

// transferUsage is hackrf_transfer 2022.09.1's usage text, printed on
// stdout (the -R line really ends in a space).
const transferUsage = "Usage:\n" +
	"\t-h # this help\n" +
	"\t[-d serial_number] # Serial number of desired HackRF.\n" +
	"\t-r <filename> # Receive data into file (use '-' for stdout).\n" +
	"\t-t <filename> # Transmit data from file (use '-' for stdin).\n" +
	"\t-w # Receive data into file with WAV header and automatic name.\n" +
	"\t   # This is for SDR# compatibility and may not work with other software.\n" +
	"\t[-f freq_hz] # Frequency in Hz [1MHz to 6000MHz supported, 0MHz to 7250MHz forceable].\n" +
	"\t[-i if_freq_hz] # Intermediate Frequency (IF) in Hz [2150MHz to 2750MHz].\n" +
	"\t[-o lo_freq_hz] # Front-end Local Oscillator (LO) frequency in Hz [84MHz to 5400MHz].\n" +
	"\t[-m image_reject] # Image rejection filter selection, 0=bypass, 1=low pass, 2=high pass.\n" +
	"\t[-a amp_enable] # RX/TX RF amplifier 1=Enable, 0=Disable.\n" +
	"\t[-p antenna_enable] # Antenna port power, 1=Enable, 0=Disable.\n" +
	"\t[-l gain_db] # RX LNA (IF) gain, 0-40dB, 8dB steps\n" +
	"\t[-g gain_db] # RX VGA (baseband) gain, 0-62dB, 2dB steps\n" +
	"\t[-x gain_db] # TX VGA (IF) gain, 0-47dB, 1dB steps\n" +
	"\t[-s sample_rate_hz] # Sample rate in Hz (2-20MHz supported, default 10MHz).\n" +
	"\t[-F force] # Force use of parameters outside supported ranges.\n" +
	"\t[-n num_samples] # Number of samples to transfer (default is unlimited).\n" +
	"\t[-S buf_size] # Enable receive streaming with buffer size buf_size.\n" +
	"\t[-B] # Print buffer statistics during transfer\n" +
	"\t[-c amplitude] # CW signal source mode, amplitude 0-127 (DC value to DAC).\n" +
	"\t[-R] # Repeat TX mode (default is off) \n" +
	"\t[-b baseband_filter_bw_hz] # Set baseband filter bandwidth in Hz.\n" +
	"\tPossible values: 1.75/2.5/3.5/5/5.5/6/7/8/9/10/12/14/15/20/24/28MHz, default <= 0.75 * sample_rate_hz.\n" +
	"\t[-C ppm] # Set Internal crystal clock error in ppm.\n" +
	"\t[-H] # Synchronize RX/TX to external trigger input.\n"

const transferOptstring = "Hwr:t:f:i:o:m:a:p:s:Fn:b:l:g:x:c:d:C:RS:Bh?"

// Defaults and limits of hackrf_transfer 2022.09.1. Frequencies are int64:
// 6 GHz does not fit a 32-bit int (32-bit ARM).
const (
	defaultFreqHz       int64 = 900_000_000
	freqMinHz           int64 = 1_000_000
	freqMaxHz           int64 = 6_000_000_000
	freqAbsMaxHz        int64 = 7_250_000_000
	defaultSampleRateHz       = 10_000_000
	sampleRateMinHz           = 2_000_000
	sampleRateMaxHz           = 20_000_000
	bwMinHz                   = 1_750_000
	bwMaxHz                   = 28_000_000
	samplesMax                = 1 << 63
)

// basebandFilters are the MAX2837 filter bandwidths libhackrf rounds to.
var basebandFilters = []uint32{1750000, 2500000, 3500000, 5000000, 5500000, 6000000, 7000000, 8000000,
	9000000, 10000000, 12000000, 14000000, 15000000, 20000000, 24000000, 28000000}

// computeBasebandFilterBW is hackrf_compute_baseband_filter_bw: the
// largest filter not above the request (the smallest filter at least).
func computeBasebandFilterBW(hz uint32) uint32 {
	i, found := slices.BinarySearch(basebandFilters, hz)
	if !found && i > 0 {
		i--
	}
	return basebandFilters[i]
}

// xfer is a parsed and checked hackrf_transfer command line.
type xfer struct {
	receive, transmit bool
	path              string
	serial            *string
	freqHz            int64
	sampleRate        uint32
	amp               *uint32
	antenna           *uint32
	limit             bool
	samples           uint64
	stats             bool   // -B
	bwHz              uint32 // 0: no -b
	repeat            bool
	hwSync            bool // -H: start on the trigger input's edge
}

// errUsage ends argument handling: the message (if any) goes to stderr,
// the usage (if wanted) to stdout, and the tool exits with code.
type errUsage struct {
	msg   string
	usage bool
	code  int
}

// parseTransfer replays hackrf_transfer 2022.09.1's argument handling, in
// its order, so the first complaint is the one the real tool prints.
func parseTransfer(prog string, args []string, m modes, stderr io.Writer) (*xfer, *errUsage) {
	x := &xfer{}
	modeCount := 0
	floats := map[byte]float64{}             // -f, -s, -b as given
	u32s := map[byte]uint32{'l': 8, 'g': 20} // the 32-bit options, with defaults
	g := &getopt{prog: prog, args: args, optstring: transferOptstring}
	for {
		c, arg, msg, ok := g.next()
		if !ok {
			break
		}
		valid := true
		switch c {
		case 'r', 't':
			x.receive, x.transmit = x.receive || c == 'r', x.transmit || c == 't'
			modeCount++
			x.path = arg
		case 'd':
			x.serial = &arg
		case 'f', 's', 'b':
			floats[c], valid = strtod(arg)
		case 'a', 'p', 'l', 'g', 'x', 'C':
			var u uint64
			u, valid = parseUint(arg, 32)
			u32s[c] = uint32(u)
		case 'n':
			x.limit = true
			x.samples, valid = parseUint(arg, 64)
		case 'B':
			x.stats = true
		case 'R':
			x.repeat = true
		case 'H':
			x.hwSync = true
		case 'c', 'w', 'S', 'i', 'o', 'm', 'F':
			return nil, &errUsage{msg: fmt.Sprintf("hacksim: hackrf_transfer -%c is not simulated", c), code: 1}
		default: // 'h', '?' and getopt errors: usage and EXIT_SUCCESS
			return nil, &errUsage{msg: msg, usage: true, code: 0}
		}
		if !valid {
			return nil, argError(fmt.Sprintf("argument error: '-%c %s' invalid parameter(s) (-2)", c, arg))
		}
	}
	if v, ok := u32s['a']; ok {
		x.amp = &v
	}
	if v, ok := u32s['p']; ok {
		x.antenna = &v
	}
	if u32s['l']%8 != 0 { // the gains only warn: the simulator has none
		fmt.Fprintln(stderr, "warning: lna_gain (-l) must be a multiple of 8")
	}
	if u32s['g']%2 != 0 {
		fmt.Fprintln(stderr, "warning: vga_gain (-g) must be a multiple of 2")
	}
	if x.samples >= samplesMax {
		return nil, argError("argument error: num_samples must be less than 9223372036854775808/9223372036854Mio")
	}
	x.freqHz = defaultFreqHz
	if freq, ok := floats['f']; ok {
		x.freqHz = toInt64(freq)
		if x.freqHz > freqMaxHz || x.freqHz < freqMinHz {
			return nil, argError(fmt.Sprintf("argument error: freq_hz should be between %d and %d.", int64(freqMinHz), int64(freqMaxHz)))
		}
	}
	if x.amp != nil && *x.amp > 1 {
		return nil, argError("argument error: amp_enable shall be 0 or 1.")
	}
	if x.antenna != nil && *x.antenna > 1 {
		return nil, argError("argument error: antenna_enable shall be 0 or 1.")
	}
	x.sampleRate = defaultSampleRateHz
	if rate, ok := floats['s']; ok {
		x.sampleRate = toUint32(rate)
		if x.sampleRate > sampleRateMaxHz {
			return nil, argError(fmt.Sprintf("argument error: sample_rate_hz should be less than or equal to %d Hz/%.03f MHz", sampleRateMaxHz, 20.0))
		}
		if x.sampleRate < sampleRateMinHz {
			return nil, argError(fmt.Sprintf("argument error: sample_rate_hz should be greater than or equal to %d Hz/%.03f MHz", sampleRateMinHz, 2.0))
		}
	}
	if bw, ok := floats['b']; ok {
		hz := toUint32(bw)
		if hz > bwMaxHz {
			return nil, argError(fmt.Sprintf("argument error: baseband_filter_bw_hz must be less or equal to %d Hz/%.03f MHz", bwMaxHz, 28.0))
		}
		if hz < bwMinHz {
			return nil, argError(fmt.Sprintf("argument error: baseband_filter_bw_hz must be greater or equal to %d Hz/%.03f MHz", bwMinHz, 1.75))
		}
		x.bwHz = computeBasebandFilterBW(hz)
	}
	if modeCount > 1 {
		return nil, argError("specify only one of: -t, -c, -r, -w")
	}
	if modeCount < 1 {
		return nil, argError("specify one of: -t, -c, -r, -w")
	}
	if ppm, ok := u32s['C']; ok {
		// C arithmetic: (1000000 - ppm) is unsigned 32-bit and wraps.
		k := uint32(1000000) - ppm
		x.sampleRate = uint32(float64(x.sampleRate)*float64(k)/1000000 + 0.5)
		x.freqHz = x.freqHz * int64(k) / 1000000
		if x.sampleRate == 0 {
			return nil, &errUsage{msg: "hacksim: a -C correction to a sample rate of 0 is not simulated", code: 1}
		}
	}
	if x.transmit && x.path == "-" {
		return nil, &errUsage{msg: "hacksim: hackrf_transfer -t - (stdin) is not simulated", code: 1}
	}
	if !openBySerial(m, x.serial) {
		return nil, argError(openNotFound[:len(openNotFound)-1])
	}
	return x, nil
}

func argError(msg string) *errUsage { return &errUsage{msg: msg, usage: true, code: 1} }
