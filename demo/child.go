package demo

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/creack/pty"
)

// How a child is connected.
type attach int

const (
	// attachPipes: a new session without a controlling terminal, stdin
	// empty, output prefixed: nothing can be approved this way.
	attachPipes attach = iota
	// attachOperator: the operator's own terminal, inherited; the person
	// answers the child's prompts. Interactive mode only.
	attachOperator
	// attachPTY: a new session whose controlling terminal is a pty of the
	// demo's own, where an autoOperator answers. --auto only.
	attachPTY
)

// childSpec is one rfhandoff command to run.
type childSpec struct {
	Node    *rxNode // the RX node it runs on; nil: MAIN
	Args    []string
	Attach  attach
	Answers []Answer  // what an attachPTY child's autoOperator types
	Output  io.Writer // attachPipes: replaces the prefixed demo output (a log file)
	// OnLine, for attachOperator and attachPTY, sees every line the child
	// prints, as plain text.
	OnLine func(line string)
}

// side is the transcript's prefix for the child.
func (s childSpec) side() string {
	if s.Node == nil {
		return "MAIN"
	}
	return s.Node.Side
}

type child struct {
	name   string
	proc   *os.Process
	exited chan struct{}
	state  *os.ProcessState
	copied chan struct{} // closed when the child's output has been read to its end
	auto   *autoOperator // attachPTY only
}

// argv0 makes the child rfhandoff itself whatever the binary's file name
// (a test binary dispatches on it).
const argv0 = "rfhandoff"

// start runs the binary with "--config policy" and the spec's arguments.
func (d *runner) start(spec childSpec) (*child, error) {
	policy, attr := d.sb.MainPolicy, &os.ProcAttr{Dir: d.sb.Main, Env: d.sb.env}
	if n := spec.Node; n != nil {
		// An RX node's simulator also hears the sandbox's transmission.
		policy, attr.Dir = n.Policy, n.Dir
		attr.Env = append(slices.Clone(d.sb.env), d.sb.onAirEnv(n))
		if d.sb.Sync != "" {
			attr.Env = d.sb.syncEnv(attr.Env, n)
		}
	}
	// Every child reads a policy confined to the sandbox, checked again
	// right before it starts.
	if _, err := d.sb.loadConfined(policy); err != nil {
		return nil, err
	}
	args := append([]string{argv0, "--config", policy}, spec.Args...)
	c := &child{name: spec.side() + " " + strings.Join(spec.Args, " "), exited: make(chan struct{}), copied: make(chan struct{})}
	var closeAfter []*os.File
	var reader *os.File
	var sinkTo io.Writer
	var flush func()

	switch spec.Attach {
	case attachOperator:
		attr.Files = []*os.File{os.Stdin, os.Stdout, os.Stderr}
		attr.Sys = operatorAttr()
		if spec.OnLine == nil {
			close(c.copied)
			break
		}
		// Standard output passes through the demo unchanged, so the demo can
		// read the child's reports; the prompts go to /dev/tty directly.
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		attr.Files[1] = w
		closeAfter = append(closeAfter, w)
		reader = r
		t := &teeLines{w: os.Stdout, lineSplitter: lineSplitter{each: spec.OnLine}}
		sinkTo, flush = t, t.flush
	case attachPipes:
		devnull, err := os.Open(os.DevNull)
		if err != nil {
			return nil, err
		}
		r, w, err := os.Pipe()
		if err != nil {
			devnull.Close()
			return nil, err
		}
		attr.Files = []*os.File{devnull, w, w}
		attr.Sys = detachedAttr()
		closeAfter = append(closeAfter, devnull, w)
		reader = r
		if spec.Output != nil {
			sinkTo, flush = spec.Output, func() {
				if cl, ok := spec.Output.(io.Closer); ok {
					_ = cl.Close()
				}
			}
		} else {
			ls := prefixed(d.out, sidePrefix(spec.side()))
			sinkTo, flush = ls, ls.flush
		}
	case attachPTY:
		master, slave, err := pty.Open()
		if err != nil {
			return nil, fmt.Errorf("opening a pseudo-terminal for %s: %w", c.name, err)
		}
		if err := pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
			master.Close()
			slave.Close()
			return nil, err
		}
		attr.Files = []*os.File{slave, slave, slave}
		attr.Sys = ttyAttr()
		closeAfter = append(closeAfter, slave)
		reader = master
		c.auto = &autoOperator{side: spec.side(), out: d.out, term: master, answers: spec.Answers, onLine: spec.OnLine}
		sinkTo, flush = c.auto, c.auto.flush
	}

	proc, err := os.StartProcess(d.o.Exe, args, attr)
	for _, f := range closeAfter {
		f.Close()
	}
	if err != nil {
		if reader != nil {
			reader.Close()
		}
		if cl, ok := spec.Output.(io.Closer); ok {
			_ = cl.Close()
		}
		return nil, fmt.Errorf("starting %s: %w", c.name, err)
	}
	c.proc = proc
	go func() {
		c.state, _ = proc.Wait()
		close(c.exited)
	}()
	if reader != nil {
		go func() {
			defer close(c.copied)
			defer reader.Close()
			// EOF on a pipe, EIO on a pty master once the child's side is
			// closed: either way the output has ended.
			_, _ = io.Copy(sinkTo, reader)
			flush()
		}()
	}
	d.mu.Lock()
	d.children = append(d.children, c)
	d.mu.Unlock()
	return c, nil
}

// drainTimeout bounds the wait for a child's output after it exited (a
// grandchild could still hold it open).
const drainTimeout = 5 * time.Second

// wait waits for the child to exit and its output to be shown; it returns
// the exit code (-1 when a signal ended it). When ctx ends first the child
// is stopped.
func (c *child) wait(ctx context.Context) (int, error) {
	select {
	case <-c.exited:
	case <-ctx.Done():
		c.stop(stopGrace)
		return -1, ctx.Err()
	}
	select {
	case <-c.copied:
	case <-time.After(drainTimeout):
	}
	return c.state.ExitCode(), nil
}

// stopGrace is how long a child gets after SIGINT before SIGKILL.
const stopGrace = 15 * time.Second

// stop interrupts the child as Ctrl-C would, and kills it after grace.
func (c *child) stop(grace time.Duration) {
	if c.done() {
		return
	}
	_ = interruptProcess(c.proc)
	select {
	case <-c.exited:
	case <-time.After(grace):
		_ = c.proc.Kill()
		<-c.exited
	}
}

func (c *child) done() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

func sidePrefix(side string) string {
	return fmt.Sprintf("%-4s | ", side)
}
