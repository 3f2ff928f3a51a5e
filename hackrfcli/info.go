package hackrfcli

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Info is what hackrf_info reported.
type Info struct {
	ToolVersion string // "hackrf_info version: %s", e.g. 2022.09.1
	LibVersion  string // libhackrf release, e.g. 2022.09.1
	LibABI      string // libhackrf ABI version in parentheses, e.g. 0.7
	Boards      []Board
	// Failures are "... failed:" lines the tool survived: an open failure
	// with a USB error skips that board and the tool can still exit 0.
	Failures []*callError
	// Extra holds stdout lines outside any board block that the parser
	// does not know, kept so newer tool versions do not break parsing.
	Extra []string
	// Simulated is SimulatorMarker seen: the answer came from rfhandoff's
	// simulator, not from a HackRF.
	Simulated bool
	// Path is the executable that answered (Client.Info fills it from the
	// runner; "" from ParseInfo).
	Path string
}

// Board is one "Found HackRF" block. Optional lines leave zero values or nil.
type Board struct {
	Index            int
	Serial           string // 32 hex digits; "" when the tool could not read it
	BoardID          int    // -1 when the line is missing (the board could not be opened)
	BoardName        string // e.g. "HackRF One"
	FirmwareVersion  string // e.g. 2022.09.1 or git-1925e590
	APIVersion       string // firmware USB API, e.g. 1.06
	PartID           string // the two words as printed, e.g. "0xa000cb3c 0x00574f5b"
	HardwareRevision string // e.g. r8; "" when not reported (firmware API < 1.06)
	// MadeByGSG is whether the tool says Great Scott Gadgets made the
	// hardware; nil when it says nothing.
	MadeByGSG *bool
	// Platforms lists "Hardware supported by installed firmware:".
	Platforms  []string
	OperaCakes []int // addresses of attached Opera Cakes
	// OtherDevicesOnBus counts other USB devices sharing the bus (tools
	// v2026.01.1 and later); nil when not reported.
	OtherDevicesOnBus *int
	// Messages are the tool's "Error:", "Warning:" and self-test lines for
	// this board, verbatim.
	Messages []string
	// Extra holds lines of this block the parser does not know.
	Extra []string
}

// Opened reports whether the tool could open the board and read its identity.
func (b Board) Opened() bool { return b.BoardID >= 0 && b.FirmwareVersion != "" }

// Find returns the first board whose serial ends with serial, the way
// hackrf_transfer -d and hackrf_clock -d pick a device. An empty serial
// picks the first board.
func (in Info) Find(serial string) (Board, bool) {
	for _, b := range in.Boards {
		if serial == "" || (b.Serial != "" && len(serial) <= len(b.Serial) && strings.HasSuffix(b.Serial, serial)) {
			return b, true
		}
	}
	return Board{}, false
}

const toolInfo = "hackrf_info"

var (
	libVersionRE = regexp.MustCompile(`^libhackrf version: (.*) \(([^()]*)\)$`)
	boardIDRE    = regexp.MustCompile(`^Board ID Number: (\d+) \((.*)\)$`)
	firmwareRE   = regexp.MustCompile(`^Firmware Version: (.*) \(API:([0-9a-f]+\.[0-9a-f]+)\)$`)
	operaCakeRE  = regexp.MustCompile(`^Opera Cake found, address: (\d+)$`)
	otherBusRE   = regexp.MustCompile(`^There are (\d+) other devices on the same USB bus\.$`)
)

// ParseInfo reads hackrf_info's stdout, stderr and exit code.
//
// No device is exit 1 with "No HackRF boards found." on stdout and returns a
// *noDeviceError (errors.Is ErrNoDevice). A failed library call returns its
// *callError. Exit 0 must list at least one board. The Info parsed so far is
// returned together with any error.
func ParseInfo(stdout, stderr []byte, exitCode int) (Info, error) {
	var (
		info     Info
		cur      *Board
		noDevice bool
		inPlat   bool // inside the "Hardware supported" list
		inSelf   bool // after "Self-test FAIL:", whose text has no fixed shape
	)
	for _, line := range splitLines(stdout) {
		if inPlat {
			if name, ok := strings.CutPrefix(line, "    "); ok && cur != nil {
				cur.Platforms = append(cur.Platforms, name)
				continue
			}
			inPlat = false
		}
		switch {
		case strings.HasPrefix(line, "hackrf_info version: "):
			info.ToolVersion = strings.TrimPrefix(line, "hackrf_info version: ")
		case strings.HasPrefix(line, "libhackrf version: "):
			if m := libVersionRE.FindStringSubmatch(line); m != nil {
				info.LibVersion, info.LibABI = m[1], m[2]
			} else {
				info.LibVersion = strings.TrimPrefix(line, "libhackrf version: ")
			}
		case line == SimulatorMarker:
			info.Simulated = true
		case line == "No HackRF boards found.":
			noDevice = true
		case line == "Found HackRF":
			info.Boards = append(info.Boards, Board{Index: -1, BoardID: -1})
			cur = &info.Boards[len(info.Boards)-1]
			inSelf = false
		case line == "":
			inSelf = false
		case cur == nil:
			info.Extra = append(info.Extra, line)
		default:
			var startsPlat, startsSelf bool
			startsPlat, startsSelf = parseBoardLine(cur, line, inSelf)
			inPlat = startsPlat
			inSelf = inSelf || startsSelf
		}
	}
	for _, line := range splitLines(stderr) {
		if ce, ok := parseCallFailed(toolInfo, line); ok {
			info.Failures = append(info.Failures, ce)
		}
	}
	return info, infoError(info, noDevice, exitCode)
}

// parseBoardLine fills one line of a board block into b. It reports whether
// the line opens the platform list or the self-test text.
func parseBoardLine(b *Board, line string, inSelf bool) (platforms, selfTest bool) {
	switch {
	case strings.HasPrefix(line, "Index: "):
		if n, err := strconv.Atoi(strings.TrimPrefix(line, "Index: ")); err == nil {
			b.Index = n
			return
		}
	case strings.HasPrefix(line, "Serial number: "):
		b.Serial = strings.TrimPrefix(line, "Serial number: ")
		return
	case strings.HasPrefix(line, "Board ID Number: "):
		if m := boardIDRE.FindStringSubmatch(line); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				b.BoardID, b.BoardName = n, m[2]
				return
			}
		}
	case strings.HasPrefix(line, "Firmware Version: "):
		if m := firmwareRE.FindStringSubmatch(line); m != nil {
			b.FirmwareVersion, b.APIVersion = m[1], m[2]
			return
		}
	case strings.HasPrefix(line, "Part ID Number: "):
		b.PartID = strings.TrimPrefix(line, "Part ID Number: ")
		return
	case strings.HasPrefix(line, "Hardware Revision: "):
		b.HardwareRevision = strings.TrimPrefix(line, "Hardware Revision: ")
		return
	case line == "Hardware appears to have been manufactured by Great Scott Gadgets.":
		b.MadeByGSG = ptr(true)
		return
	case line == "Hardware does not appear to have been manufactured by Great Scott Gadgets.":
		b.MadeByGSG = ptr(false)
		return
	case line == "Hardware supported by installed firmware:":
		return true, false
	case strings.HasPrefix(line, "Opera Cake found, address: "):
		if m := operaCakeRE.FindStringSubmatch(line); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				b.OperaCakes = append(b.OperaCakes, n)
				return
			}
		}
	case line == "This device is on its own USB bus.":
		b.OtherDevicesOnBus = ptr(0)
		return
	case line == "There is 1 other device on the same USB bus.":
		b.OtherDevicesOnBus = ptr(1)
		return
	case strings.HasPrefix(line, "There are "):
		if m := otherBusRE.FindStringSubmatch(line); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				b.OtherDevicesOnBus = ptr(n)
				return
			}
		}
	case line == "You may have problems at high sample rates.":
		b.Messages = append(b.Messages, line)
		return
	case line == "Self-test FAIL:":
		b.Messages = append(b.Messages, line)
		return false, true
	case strings.HasPrefix(line, "Error: "), strings.HasPrefix(line, "Warning: "):
		b.Messages = append(b.Messages, line)
		return
	}
	if inSelf {
		b.Messages = append(b.Messages, line)
		return
	}
	b.Extra = append(b.Extra, line)
	return
}

// infoError applies hackrf_info's exit code semantics to what was parsed.
func infoError(info Info, noDevice bool, exitCode int) error {
	if noDevice {
		return &noDeviceError{Tool: toolInfo, ExitCode: exitCode}
	}
	if exitCode != 0 {
		if len(info.Failures) > 0 {
			return info.Failures[0]
		}
		return outputError(toolInfo, exitCode, "failed without a known error line")
	}
	if info.ToolVersion == "" {
		return outputError(toolInfo, exitCode, `no "hackrf_info version:" line`)
	}
	if len(info.Boards) == 0 {
		return outputError(toolInfo, exitCode, `neither a "Found HackRF" block nor "No HackRF boards found."`)
	}
	for _, b := range info.Boards {
		if b.Opened() {
			return nil
		}
	}
	if len(info.Failures) > 0 {
		return info.Failures[0]
	}
	return outputError(toolInfo, exitCode, fmt.Sprintf("%d board(s) listed but none could be read", len(info.Boards)))
}

func ptr[T any](v T) *T { return &v }
