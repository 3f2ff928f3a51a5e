package hacksim

import "io"

// hackrf_info 2022.09.1 is int main(void): it ignores its arguments and
// prints everything on stdout.
const infoHeader = "hackrf_info version: " + ToolVersion + "\n" +
	"libhackrf version: " + ToolVersion + " (" + LibABI + ")\n"

const infoBoard = "Found HackRF\n" +
	"Index: 0\n" +
	"Serial number: " + Serial + "\n" +
	"Board ID Number: 2 (HackRF One)\n" +
	"Firmware Version: " + FirmwareVersion + " (API:" + APIVersion + ")\n" +
	"Part ID Number: 0xa000cb3c 0x00574f5b\n" +
	"Hardware Revision: r8\n" +
	"Hardware appears to have been manufactured by Great Scott Gadgets.\n" +
	"Hardware supported by installed firmware:\n" +
	"    HackRF One\n"

func runInfo(m modes, stdout io.Writer) int {
	if m.nodevice {
		io.WriteString(stdout, infoHeader+"No HackRF boards found.\n")
		return 1
	}
	io.WriteString(stdout, infoHeader+infoBoard)
	return 0
}
