package hacksim

import "strings"

// The simulated board and software: Debian's 2022.09.1 on a HackRF One r8.
const (
	toolVersion     = "2022.09.1"
	libABI          = "0.7"
	Serial          = "0000000000000000a06063c8233e1a5f"
	firmwareVersion = "2022.09.1"
	apiVersion      = "1.06"
	// HACKRF_SIM=oldfw: the board still runs firmware 2021.03.1, whose USB
	// API is too old for CLKIN status and the -B counters.
	OldFirmwareVersion = "2021.03.1"
	OldAPIVersion      = "1.04"
	// HACKRF_SIM=fw2023: firmware 2023.01.1 on a HackRF One before r9,
	// which ignores -H (greatscottgadgets/hackrf#1292).
	triggerlessFirmwareVersion = "2023.01.1"
	triggerlessAPIVersion      = "1.07"
)

// unsupported is libhackrf's answer for a call the firmware's USB API is
// too old for (HACKRF_ERROR_USB_API_VERSION).
const unsupported = "feature not supported by installed firmware (-1005)"

// openBySerial is hackrf_open_by_serial's match: the given string is a
// suffix of the 32-digit serial (nil serial: the first device).
func openBySerial(m modes, serial *string) bool {
	if m.nodevice {
		return false
	}
	if serial == nil {
		return true
	}
	return len(*serial) <= len(Serial) && strings.HasSuffix(Serial, *serial)
}

const openNotFound = "hackrf_open() failed: HackRF not found (-5)\n"

// usbGone is libusb's text for a device that disappeared (LIBUSB_ERROR_NO_DEVICE).
const usbGone = "No such device (it may have been disconnected) (-1000)"
