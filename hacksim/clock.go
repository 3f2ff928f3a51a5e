package hacksim

import (
	"fmt"
	"io"
)

const clockUsage = `hackrf_clock - HackRF clock configuration utility
Usage:
	-h, --help: this help
	-r, --read <clock_num>: read settings for clock_num
	-a, --all: read settings for all clocks
	-i, --clkin: get CLKIN status
	-o, --clkout <clkout_enable>: enable/disable CLKOUT
	-d, --device <serial_number>: Serial number of desired HackRF.

Examples:
	hackrf_clock -r 3 : prints settings for CLKOUT
`

// clockLong is hackrf_clock's option table, quirk included: "clkin" is
// declared with a required argument although -i takes none.
var clockLong = map[string]longOpt{
	"help": {'h', false}, "read": {'r', true}, "all": {'a', false},
	"clkin": {'i', true}, "clkout": {'o', true}, "device": {'d', true},
}

// runClock is hackrf_clock 2022.09.1: results and "... failed:" lines on
// stdout; only "An operation must be specified." and getopt's complaints
// on stderr.
func runClock(prog string, args []string, m modes, stdout, stderr io.Writer) int {
	var (
		read, clkin, clkout bool
		serial              *string
	)
	g := &getopt{prog: prog, args: args, optstring: "r:aio:d:h?", long: clockLong}
	for {
		c, arg, msg, ok := g.next()
		if !ok {
			break
		}
		valid := true
		switch c {
		case 'r', 'o':
			read, clkout = read || c == 'r', clkout || c == 'o'
			_, valid = parseUint(arg, 32)
		case 'a':
			read = true
		case 'i':
			clkin = true
		case 'd':
			serial = &arg
		default: // 'h', '?' and getopt errors: usage, exit 0
			if msg != "" {
				fmt.Fprintln(stderr, msg)
			}
			io.WriteString(stdout, clockUsage)
			return 0
		}
		if !valid {
			io.WriteString(stdout, "argument error: invalid parameter(s) (-2)\n"+clockUsage)
			return 1
		}
	}
	if !clkin && !clkout && !read {
		io.WriteString(stderr, "An operation must be specified.\n")
		io.WriteString(stdout, clockUsage)
		return 1
	}
	if !openBySerial(m, serial) {
		io.WriteString(stdout, openNotFound)
		return 1
	}
	// -o (CLKOUT on/off) prints nothing on success.
	if clkin {
		switch {
		case m.oldfw:
			io.WriteString(stdout, "hackrf_get_clkin_status() failed: "+unsupported+"\n")
			return 1
		case m.noclock:
			io.WriteString(stdout, "CLKIN status: no clock signal detected\n")
		default:
			io.WriteString(stdout, "CLKIN status: clock signal detected\n")
		}
	}
	if read {
		io.WriteString(stderr, "hacksim: hackrf_clock -r/-a (Si5351 register dump) is not simulated\n")
		return 1
	}
	return 0
}
