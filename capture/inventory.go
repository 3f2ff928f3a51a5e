package capture

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"rfhandoff/hackrfcli"
)

// inventory runs hackrf_info and picks the board to capture with: the one
// whose serial ends with the pinned serial, or the only one there is.
func inventory(ctx context.Context, c *hackrfcli.Client, pinned string) (hackrfcli.Info, hackrfcli.Board, error) {
	info, err := c.Info(ctx)
	if errors.Is(err, hackrfcli.ErrNoDevice) {
		return info, hackrfcli.Board{}, noDevice(pinned, nil, err)
	}
	if err != nil {
		return info, hackrfcli.Board{}, fmt.Errorf("hackrf_info: %w", err)
	}
	b, err := pick(info, pinned)
	return info, b, err
}

func pick(info hackrfcli.Info, pinned string) (hackrfcli.Board, error) {
	var matching []hackrfcli.Board
	for _, b := range info.Boards {
		if pinned == "" || (b.Serial != "" && strings.HasSuffix(b.Serial, pinned)) {
			matching = append(matching, b)
		}
	}
	switch {
	case len(matching) == 0:
		return hackrfcli.Board{}, noDevice(pinned, serials(info.Boards), nil)
	case len(matching) > 1:
		return hackrfcli.Board{}, ambiguousDevice(pinned, serials(matching))
	}
	b := matching[0]
	if !b.Opened() {
		msg := "hackrf_info could not read the board"
		if len(info.Failures) > 0 {
			msg += ": " + info.Failures[0].Error()
		}
		if len(b.Messages) > 0 {
			msg += " (" + strings.Join(b.Messages, "; ") + ")"
		}
		return b, errors.New(msg)
	}
	return b, nil
}

func serials(bs []hackrfcli.Board) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		out = append(out, cmp.Or(b.Serial, fmt.Sprintf("board %d without a readable serial", b.Index)))
	}
	return out
}

// hwDescription is SigMF's core:hw for the board.
func hwDescription(b hackrfcli.Board) string {
	parts := []string{cmp.Or(b.BoardName, "HackRF")}
	if b.HardwareRevision != "" {
		parts[0] += " " + b.HardwareRevision
	}
	if b.FirmwareVersion != "" {
		fw := "firmware " + b.FirmwareVersion
		if b.APIVersion != "" {
			fw += " (API " + b.APIVersion + ")"
		}
		parts = append(parts, fw)
	}
	if b.Serial != "" {
		parts = append(parts, "serial "+b.Serial)
	}
	return strings.Join(parts, ", ")
}

// checkClock requires CLKIN detected before anything starts; firmware too
// old to answer is named as hackrf_info read it.
func checkClock(ctx context.Context, c *hackrfcli.Client, board hackrfcli.Board) error {
	st, err := c.Clock(ctx)
	if errors.Is(err, hackrfcli.ErrNoDevice) {
		return noDevice(c.Serial, nil, err)
	}
	if err != nil || st != hackrfcli.ClockDetected {
		return clockRefusal(err, board.FirmwareVersion, board.APIVersion)
	}
	return nil
}
