package hacksim

import "io"

// hackrf_info 2022.09.1 is int main(void): it ignores its arguments and
// prints everything on stdout.
const infoHeader = "hackrf_info version: " + toolVersion + "\n" +
	"libhackrf version: " + toolVersion + " (" + libABI + ")\n"

// infoBoard is the board's block. The revision and the platform list are
// read only from firmware with USB API 1.06 or later (revision "": older).
func infoBoard(firmware, api, revision string) string {
	s := "Found HackRF\n" +
		"Index: 0\n" +
		"Serial number: " + Serial + "\n" +
		"Board ID Number: 2 (HackRF One)\n" +
		"Firmware Version: " + firmware + " (API:" + api + ")\n" +
		"Part ID Number: 0xa000cb3c 0x00574f5b\n"
	if revision == "" {
		return s
	}
	return s + "Hardware Revision: " + revision + "\n" +
		"Hardware appears to have been manufactured by Great Scott Gadgets.\n" +
		"Hardware supported by installed firmware:\n" +
		"    HackRF One\n"
}

func runInfo(m modes, stdout io.Writer) int {
	switch {
	case m.nodevice:
		io.WriteString(stdout, infoHeader+"No HackRF boards found.\n")
		return 1
	case m.oldfw:
		io.WriteString(stdout, infoHeader+infoBoard(OldFirmwareVersion, OldAPIVersion, ""))
	case m.fw2023:
		io.WriteString(stdout, infoHeader+infoBoard(triggerlessFirmwareVersion, triggerlessAPIVersion, "r6"))
	default:
		io.WriteString(stdout, infoHeader+infoBoard(firmwareVersion, apiVersion, "r8"))
	}
	return 0
}
