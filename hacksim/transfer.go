package hacksim

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"syscall"
	"time"
)

// runTransfer is hackrf_transfer: everything on stderr but the usage
// (stdout) and, with -r -, the samples (stdout).
func runTransfer(prog string, args []string, m modes, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	x, eu := parseTransfer(prog, args, m, stderr)
	if eu != nil {
		if eu.msg != "" {
			fmt.Fprintln(stderr, eu.msg)
		}
		if eu.usage {
			io.WriteString(stdout, transferUsage)
		}
		return eu.code
	}
	s := &session{x: x, m: m, errw: stderr, sigs: sigs, flowing: true, remaining: 2 * x.samples}
	if !s.open(stdout) {
		return 1
	}
	s.prepare()
	s.header()
	return s.stream()
}

// session is one simulated streaming run.
type session struct {
	x    *xfer
	m    modes
	errw io.Writer
	sigs <-chan os.Signal

	out   io.Writer // RX destination
	in    *os.File  // TX source
	file  *os.File  // the file to fclose (nil for -r -)
	src   *source
	txBuf []byte

	// began is the tool's t_start (its one-second timer, "Total time");
	// start is when sample 0 is taken, by the host clock: began, or with
	// -H the trigger's edge.
	began, start time.Time
	lastWake     time.Time
	blockDur     time.Duration
	blocks       int64  // blocks delivered
	total        uint64 // bytes counted (what M0/M4 report)
	remaining    uint64 // bytes still to write or send under -n
	failAfter    uint64 // stall/exit1: no block that would pass this byte count
	ivBytes      uint64 // bytes in the current one-second interval
	ivEnergy     uint64 // their sum of squares

	listened      bool // the on-air file was read (or refused)
	waiting       bool // -H: armed, the edge has not come (yet)
	flowing       bool // blocks still arrive
	doExit        bool // the tool's do_exit: -n reached, TX done, signal
	interrupted   bool
	flushComplete bool
}

func (s *session) open(stdout io.Writer) bool {
	var err error
	switch {
	case s.x.receive && s.x.path == "-":
		s.out = stdout
	case s.x.receive:
		s.file, err = os.OpenFile(s.x.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		s.out = s.file
	default:
		s.file, err = os.Open(s.x.path)
		s.in = s.file
	}
	if err != nil {
		fmt.Fprintf(s.errw, "Failed to open file: %s\n", s.x.path)
	}
	return err == nil
}

func (s *session) header() {
	x := s.x
	w := s.errw
	fmt.Fprintf(w, "call hackrf_set_sample_rate(%d Hz/%s MHz)\n", x.sampleRate, cf(float64(float32(x.sampleRate)/1e6), 0, 3))
	if x.bwHz != 0 {
		fmt.Fprintf(w, "call hackrf_set_baseband_filter_bandwidth(%d Hz/%s MHz)\n", x.bwHz, cf(float64(float32(x.bwHz)/1e6), 0, 3))
	}
	sync := 0
	if x.hwSync {
		sync = 1
	}
	fmt.Fprintf(w, "call hackrf_set_hw_sync_mode(%d)\n", sync)
	fmt.Fprintf(w, "call hackrf_set_freq(%d Hz/%s MHz)\n", x.freqHz, cf(float64(x.freqHz)/1e6, 0, 3))
	if x.amp != nil {
		fmt.Fprintf(w, "call hackrf_set_amp_enable(%d)\n", *x.amp)
	}
	if x.antenna != nil {
		fmt.Fprintf(w, "call hackrf_set_antenna_enable(%d)\n", *x.antenna)
	}
	if x.limit {
		fmt.Fprintf(w, "samples_to_xfer %d/%dMio\n", x.samples, x.samples/1_000_000)
	}
	// The real tool prints this once hackrf_start_rx returned: the board
	// is armed (-H) or streaming. A slow arming comes before it.
	if x.hwSync && s.m.slowarm {
		time.Sleep(slowArm)
	}
	io.WriteString(w, "Stop with Ctrl-C\n")
}

// prepare builds the noise (which takes a while at a large pool) before
// the header, so that streaming starts as soon as "Stop with Ctrl-C" is
// written, as it does on the real tool (whose board streams by then).
func (s *session) prepare() {
	x := s.x
	if x.receive {
		from, to := int64(5*x.sampleRate), int64(10*x.sampleRate)
		if x.limit {
			from, to = int64(x.samples/3), int64(2*x.samples/3)
		}
		s.src = newSource(s.m.runSeed(x.path), x.sampleRate, s.m.burst, from, to)
		if s.m.stall || s.m.exit1 {
			s.failAfter = 2 * uint64(from) // stall and burst both start a third in
		}
	} else {
		s.txBuf = make([]byte, blockSize)
	}
	s.blockDur = time.Duration(float64(blockSize) / (2 * float64(x.sampleRate)) * float64(time.Second)) // I and Q bytes
}

// stream runs the tool's main loop: USB blocks arrive at the sample rate
// (or as fast as possible), a one-second timer prints the progress line,
// and -n, the end of a TX file, a signal or an empty second end it.
func (s *session) stream() int {
	s.began = time.Now()
	s.start = s.began
	s.arm()
	s.lastWake = s.began
	nextTick := s.began.Add(time.Second)
	for {
		now := time.Now()
		if s.waiting && !s.start.IsZero() && !now.Before(s.start) {
			s.waiting, s.flowing = false, true // the edge
		}
		due := s.due()
		if s.flowing && (s.m.fast || !now.Before(due)) {
			s.deliver()
			select {
			case sig := <-s.sigs:
				s.caught(sig)
			default:
			}
		} else {
			wait := nextTick.Sub(now)
			if s.flowing && due.Sub(now) < wait {
				wait = due.Sub(now)
			}
			if s.waiting && !s.start.IsZero() && s.start.Sub(now) < wait {
				wait = s.start.Sub(now)
			}
			t := time.NewTimer(wait)
			select {
			case sig := <-s.sigs:
				s.caught(sig)
			case <-t.C:
			}
			t.Stop()
		}
		now = time.Now()
		if !s.doExit && now.Before(nextTick) {
			continue
		}
		// The wake-up of the real loop: a tick, a stop or a signal.
		if s.interrupted && s.ivBytes == 0 && s.flowing {
			s.waitNextBlock()
			now = time.Now()
		}
		if s.ivBytes == 0 && s.x.hwSync {
			io.WriteString(s.errw, "Waiting for trigger...\n")
			s.lastWake = now
		} else {
			s.progress(now)
		}
		for !nextTick.After(now) {
			nextTick = nextTick.Add(time.Second)
		}
		// -H disables the stall exit for the whole run.
		if s.ivBytes == 0 && !s.flushComplete && !s.x.hwSync {
			io.WriteString(s.errw, "\nCouldn't transfer any bytes for one second.\n")
			return s.finish(1)
		}
		s.ivBytes, s.ivEnergy = 0, 0
		// The real loop runs while hackrf_is_streaming() is true: a
		// vanished device (exit1) ends it here with exit 0 when -H has
		// disabled the stall exit above.
		if s.doExit || (s.x.hwSync && s.m.exit1 && !s.flowing && !s.waiting) {
			break
		}
	}
	return s.finish(0)
}

// slowArm is how much later HACKRF_SIM=slowarm arms under -H.
const slowArm = 1200 * time.Millisecond

// arm is -H: no block flows until the trigger input's first rising edge
// after arming (now), where sample 0 is taken (doc.go, "Time").
func (s *session) arm() {
	if !s.x.hwSync || s.m.fw2023 {
		return
	}
	switch s.m.trigger {
	case "ignore":
		return
	case "none":
		s.start = time.Time{}
	default:
		s.start = s.m.nextEdge(s.began)
	}
	s.waiting, s.flowing = true, false
}

// due is when the next block arrives (at the sample rate).
func (s *session) due() time.Time { return s.start.Add(time.Duration(s.blocks+1) * s.blockDur) }

// waitNextBlock lets the next block arrive before a signal is handled, so
// the final interval is never empty (see the package documentation).
func (s *session) waitNextBlock() {
	if !s.m.fast {
		time.Sleep(time.Until(s.due()))
	}
	s.deliver()
}

func (s *session) caught(sig os.Signal) {
	n := int(syscall.SIGINT)
	if ss, ok := sig.(syscall.Signal); ok {
		n = int(ss)
	}
	fmt.Fprintf(s.errw, "Caught signal %d\n", n)
	if s.m.slowstop {
		time.Sleep(slowStop)
	}
	s.doExit, s.interrupted = true, true
}

// slowStop is how long HACKRF_SIM=slowstop takes from a signal to the end.
const slowStop = 2 * time.Second

// deliver is one USB transfer completing.
func (s *session) deliver() {
	if s.x.receive {
		s.rxBlock()
	} else {
		s.txBlock()
	}
}

// rxBlock is rx_callback: the whole block counts towards the progress
// line, but under -n only the remaining bytes are written.
func (s *session) rxBlock() {
	if s.failAfter > 0 && s.total+blockSize > s.failAfter {
		s.flowing = false
		return
	}
	s.listen()
	data, e := s.src.block(s.blocks * blockSize / 2)
	s.count(blockSize, e)
	n := s.take()
	// The real tool stops quietly on a short write (disk full) too: exit 0.
	if _, err := s.out.Write(data[:n]); err != nil || (s.x.limit && s.remaining == 0) {
		s.stop()
	}
}

// listen looks for the on-air file (HACKRF_SIM_ONAIR) before each block
// until it is there, then adds the transmission as this receiver hears it.
// A block is built only after the look, and its samples were all taken
// before it is due, so a transmission that starts after the file was
// written is heard from its first sample.
func (s *session) listen() {
	l := s.m.onair
	if l == nil || s.listened {
		return
	}
	a, err := readOnAir(l.path)
	if errors.Is(err, errNotOnAir) {
		return
	}
	s.listened = true
	if err != nil {
		fmt.Fprintf(s.errw, "hacksim: %s: %v\n", OnAirEnv, err)
		return
	}
	// With HACKRF_SIM_DELAY_NS the ns-resolution coupling: the chirp, heard
	// delay_ms plus it after its emission (true time).
	delay := l.delay
	if s.m.delayNS != nil {
		delay += *s.m.delayNS
	}
	first := s.m.trueTime(s.start) // sample 0's true time
	from, to, ok := onAirWindow(a, delay, first, s.x.sampleRate)
	if !ok {
		return
	}
	if s.m.delayNS != nil {
		if off := float64(a.FrequencyHz - s.x.freqHz); chirpInBand(off, s.x.sampleRate) {
			s.src.chirps = append(s.src.chirps, newChirp(first, a.Start.Add(delay), a.DurationS, s.x.sampleRate, off, l.levelDB, from, to))
		}
	} else if off, inBand := heardOffsetHz(a, s.x.freqHz, s.x.sampleRate); inBand {
		s.src.tones = append(s.src.tones, newTone(s.x.sampleRate, off, l.levelDB, from, to))
	}
}

// txBlock is tx_callback plus the flush: a block is read from the file
// (bounded by -n, rewound with -R) and counted when sent; the last one
// completes the flush, which stops the loop.
func (s *session) txBlock() {
	want := s.take()
	n, err := io.ReadFull(s.in, s.txBuf[:want])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		io.WriteString(s.errw, "Could not read input file.\n")
		s.stop()
		return
	}
	if n == 0 && s.total == 0 {
		s.stop() // an empty file: nothing to send
		return
	}
	for s.x.repeat && uint64(n) < want {
		if _, err := s.in.Seek(0, io.SeekStart); err != nil {
			break
		}
		m, _ := io.ReadFull(s.in, s.txBuf[n:want])
		if m == 0 {
			break
		}
		n += m
	}
	s.count(uint64(n), energy(s.txBuf[:n]))
	if (s.x.limit && s.remaining == 0) || uint64(n) < want {
		s.flushComplete = true
		s.stop()
	}
}

// take is how many bytes of a block to write or send: all of it, or
// under -n what remains, which it uses up.
func (s *session) take() uint64 {
	n := uint64(blockSize)
	if s.x.limit {
		n = min(n, s.remaining)
		s.remaining -= n
	}
	return n
}

// count is one block of n bytes (energy their sum of squares) delivered.
func (s *session) count(n, energy uint64) {
	s.blocks++
	s.total += n
	s.ivBytes += n
	s.ivEnergy += energy
}

// stop is stop_main_loop.
func (s *session) stop() {
	s.doExit = true
	s.flowing = false
}

// progress prints the per-second line for the interval since the last one.
func (s *session) progress(now time.Time) {
	if s.ivBytes == 0 && s.flushComplete {
		return // the tool says nothing once a TX flush is done
	}
	td := float32(now.Sub(s.lastWake).Seconds())
	s.lastWake = now
	rate := float32(s.ivBytes) / td
	ratio := float64(s.ivEnergy) / float64(s.ivBytes*127*127)
	db := 10*math.Log10(ratio) + 3.0
	line := fmt.Sprintf("%s MiB / %s sec = %s MiB/second, average power %s dBfs",
		cf(float64(float32(s.ivBytes)/1e6), 4, 1), cf(float64(td), 5, 3), cf(float64(rate/1e6), 4, 1), cf(db, 3, 1))
	if s.x.stats {
		// A plausible, deterministic M0/M4 buffer distance (of 32 KiB).
		level := int(s.blocks%5) * 8192
		switch {
		case s.m.oldfw:
			line += "\nhackrf_get_m0_state() failed: " + unsupported
		case s.m.exit1 && !s.flowing && s.x.receive:
			line += "\nhackrf_get_m0_state() failed: " + usbGone
		case s.x.receive:
			line += fmt.Sprintf(", %d bytes free in buffer, 0 overruns, longest 0 bytes", level)
		default:
			line += fmt.Sprintf(", %d bytes filled in buffer, 0 underruns, longest 0 bytes", level)
		}
	}
	io.WriteString(s.errw, line+"\n")
}

// finish prints the end-of-run sequence and closes the file.
func (s *session) finish(exitCode int) int {
	w := s.errw
	gone := s.m.exit1 && !s.flowing && !s.doExit
	switch {
	case s.doExit:
		io.WriteString(w, "\nExiting...\n")
	case gone:
		io.WriteString(w, "\nExiting... hackrf_is_streaming() result: streaming thread encountered an error (-1002)\n")
	default:
		io.WriteString(w, "\nExiting... hackrf_is_streaming() result: HACKRF_TRUE (1)\n")
	}
	fmt.Fprintf(w, "Total time: %s s\n", cf(float64(float32(time.Since(s.began).Seconds())), 5, 5))
	call, kind := "hackrf_stop_rx()", "overruns"
	if s.x.transmit {
		call, kind = "hackrf_stop_tx()", "underruns"
	}
	done := func(call string) { // a vanished device fails every call
		if gone {
			io.WriteString(w, call+" failed: "+usbGone+"\n")
		} else {
			io.WriteString(w, call+" done\n")
		}
	}
	done(call)
	if s.x.stats {
		switch {
		case s.m.oldfw:
			io.WriteString(w, "hackrf_get_m0_state() failed: "+unsupported+"\n")
		case gone:
			io.WriteString(w, "hackrf_get_m0_state() failed: "+usbGone+"\n")
		default:
			fmt.Fprintf(w, "Transfer statistics:\n%d bytes transferred by M0\n%d bytes transferred by M4\n0 %s, longest 0 bytes\n", s.total, s.total, kind)
		}
	}
	done("hackrf_close()")
	io.WriteString(w, "hackrf_exit() done\n")
	if s.file != nil {
		s.file.Close()
		io.WriteString(w, "fclose() done\n")
	}
	io.WriteString(w, "exit\n")
	return exitCode
}
