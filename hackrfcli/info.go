package hackrfcli

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Info is what hackrf_info reported.
type Info struct {
	ToolVersion string // "hackrf_info version: %s", e.g. 2022.09.1
	LibVersion  string // libhackrf release, e.g. 2022.09.1
	LibABI      string // libhackrf ABI version in parentheses, e.g. 0.7
	Boards      []Board
	// Failures are "... failed:" lines the tool survived (it can still exit 0).
	Failures  []*callError
	Extra     []string // unknown lines outside boards, so newer tools still parse
	Simulated bool     // SimulatorMarker seen
	Path      string   // the executable that answered (set by Client.Info)
}

// Board is one "Found HackRF" block. Optional lines leave zero values or nil.
type Board struct {
	Index             int
	Serial            string   // 32 hex digits; "" when the tool could not read it
	BoardID           int      // -1 when the line is missing (the board could not be opened)
	BoardName         string   // e.g. "HackRF One"
	FirmwareVersion   string   // e.g. 2022.09.1 or git-1925e590
	APIVersion        string   // firmware USB API, e.g. 1.06
	PartID            string   // the two words as printed, e.g. "0xa000cb3c 0x00574f5b"
	HardwareRevision  string   // e.g. r8; "" when not reported (firmware API < 1.06)
	MadeByGSG         *bool    // made by Great Scott Gadgets; nil when not said
	Platforms         []string // "Hardware supported by installed firmware:"
	OperaCakes        []int    // addresses of attached Opera Cakes
	OtherDevicesOnBus *int     // v2026.01.1 and later; nil when not reported
	Messages          []string // "Error:", "Warning:" and self-test lines, verbatim
	Extra             []string // lines of this block the parser does not know
}

func (b Board) Opened() bool { return b.BoardID >= 0 && b.FirmwareVersion != "" }

// Find returns the first board whose serial ends with serial, the way
// hackrf_transfer -d and hackrf_clock -d pick a device.
func (in Info) Find(serial string) (Board, bool) {
	for _, b := range in.Boards {
		if strings.HasSuffix(b.Serial, serial) {
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

// ParseInfo reads hackrf_info's stdout, stderr and exit code. The Info
// parsed so far is returned together with any error.
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
			parseBoardLine(cur, line, &inPlat, &inSelf)
		}
	}
	info.Failures = callFailures(toolInfo, splitLines(stderr))
	return info, infoError(info, noDevice, exitCode)
}

func parseBoardLine(b *Board, line string, inPlat, inSelf *bool) {
	var m []string
	match := func(re *regexp.Regexp) bool {
		m = re.FindStringSubmatch(line)
		return m != nil
	}
	var n int
	atoi := func(s string) bool {
		var err error
		n, err = strconv.Atoi(s)
		return err == nil
	}
	switch {
	case strings.HasPrefix(line, "Index: ") && atoi(strings.TrimPrefix(line, "Index: ")):
		b.Index = n
	case strings.HasPrefix(line, "Serial number: "):
		b.Serial = strings.TrimPrefix(line, "Serial number: ")
	case match(boardIDRE) && atoi(m[1]):
		b.BoardID, b.BoardName = n, m[2]
	case match(firmwareRE):
		b.FirmwareVersion, b.APIVersion = m[1], m[2]
	case strings.HasPrefix(line, "Part ID Number: "):
		b.PartID = strings.TrimPrefix(line, "Part ID Number: ")
	case strings.HasPrefix(line, "Hardware Revision: "):
		b.HardwareRevision = strings.TrimPrefix(line, "Hardware Revision: ")
	case line == "Hardware appears to have been manufactured by Great Scott Gadgets.":
		b.MadeByGSG = ptr(true)
	case line == "Hardware does not appear to have been manufactured by Great Scott Gadgets.":
		b.MadeByGSG = ptr(false)
	case line == "Hardware supported by installed firmware:":
		*inPlat = true
	case match(operaCakeRE) && atoi(m[1]):
		b.OperaCakes = append(b.OperaCakes, n)
	case line == "This device is on its own USB bus.":
		b.OtherDevicesOnBus = ptr(0)
	case line == "There is 1 other device on the same USB bus.":
		b.OtherDevicesOnBus = ptr(1)
	case match(otherBusRE) && atoi(m[1]):
		b.OtherDevicesOnBus = ptr(n)
	case line == "Self-test FAIL:":
		*inSelf = true
		b.Messages = append(b.Messages, line)
	case *inSelf, line == "You may have problems at high sample rates.",
		strings.HasPrefix(line, "Error: "), strings.HasPrefix(line, "Warning: "):
		b.Messages = append(b.Messages, line)
	default:
		b.Extra = append(b.Extra, line)
	}
}

func infoError(info Info, noDevice bool, exitCode int) error {
	switch {
	case noDevice:
		return &noDeviceError{Tool: toolInfo, ExitCode: exitCode}
	case exitCode == 0 && info.ToolVersion == "":
		return outputError(toolInfo, exitCode, `no "hackrf_info version:" line`)
	case exitCode == 0 && len(info.Boards) == 0:
		return outputError(toolInfo, exitCode, `neither a "Found HackRF" block nor "No HackRF boards found."`)
	case exitCode == 0 && slices.ContainsFunc(info.Boards, Board.Opened):
		return nil
	case len(info.Failures) > 0:
		return info.Failures[0]
	case exitCode != 0:
		return outputError(toolInfo, exitCode, "failed without a known error line")
	}
	return outputError(toolInfo, exitCode, fmt.Sprintf("%d board(s) listed but none could be read", len(info.Boards)))
}

func ptr[T any](v T) *T { return &v }
