package prompttest

import (
	"bytes"
	"strconv"
)

// conhostText turns what a Windows pseudo-console writes into the text the
// child wrote. The console renders its screen, not the child's bytes: it
// hides and shows the cursor around each update, clears the screen and
// homes the cursor at start, and writes a run of spaces before the cursor
// as "erase to the end of the line, move right n". Exactly those sequences
// are dropped (a move right becomes its spaces); every other escape stays,
// so a test still sees a colour or a title the child made the console show.
// A sequence cut between two reads is held until its end arrives.
type conhostText struct {
	pending []byte
}

func (c *conhostText) write(p []byte) []byte {
	b := append(c.pending, p...)
	c.pending = nil
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] != 0x1b {
			out = append(out, b[i])
			i++
			continue
		}
		n, ok := csiLen(b[i:])
		if !ok { // cut: keep for the next read
			c.pending = append([]byte(nil), b[i:]...)
			break
		}
		seq := b[i : i+n]
		if text, drop := conhostSequence(seq); drop {
			out = append(out, text...)
		} else {
			out = append(out, seq...)
		}
		i += n
	}
	return out
}

// csiLen is the length of the escape sequence at b[0] (ESC): ESC [ params
// final for a CSI, else the ESC alone; ok is false while a CSI is unfinished.
func csiLen(b []byte) (n int, ok bool) {
	if len(b) < 2 {
		return 0, false
	}
	if b[1] != '[' {
		return 1, true
	}
	for j := 2; j < len(b); j++ {
		if b[j] >= 0x40 && b[j] <= 0x7e {
			return j + 1, true
		}
		if b[j] < 0x20 || b[j] > 0x3f { // not a parameter byte: not a CSI
			return 1, true
		}
	}
	return 0, false
}

// conhostSequence says whether seq is one the console writes on its own
// and, if so, the text it stands for.
func conhostSequence(seq []byte) (text []byte, drop bool) {
	if len(seq) < 3 {
		return nil, false
	}
	params, final := seq[2:len(seq)-1], seq[len(seq)-1]
	switch {
	case final == 'l' || final == 'h':
		return nil, string(params) == "?25" // cursor hidden, shown
	case final == 'J':
		return nil, string(params) == "2" // screen cleared
	case final == 'H':
		return nil, len(params) == 0 // cursor home
	case final == 'm':
		return nil, len(params) == 0 // attributes reset
	case final == 'K':
		return nil, len(params) == 0 // erase to end of line
	case final == 'C':
		n := 1
		if len(params) > 0 {
			v, err := strconv.Atoi(string(params))
			if err != nil || v < 1 || v > 4096 {
				return nil, false
			}
			n = v
		}
		return bytes.Repeat([]byte(" "), n), true
	}
	return nil, false
}
