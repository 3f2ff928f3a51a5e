package demo

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"rfhandoff/hacksim"
	"rfhandoff/prompt"
	"rfhandoff/result"
)

// Options configure Run.
type Options struct {
	Exe     string    // the rfhandoff binary (os.Executable()): every step runs it
	Auto    bool      // answer the prompts on pseudo-terminals of its own, not a person
	Keep    bool      // leave the sandbox in place at the end
	Out     io.Writer // the narration and, with Auto, the children's output
	Environ []string  // what the children's environment is built from
	Timing  Timing    // zero: autoTiming or interactiveTiming
	// RXNodes: 0 or 1, the single RX laptop of a task without RX_NODES; 2 to
	// MaxRXNodes, a task with RX_NODES and one phrase for all (PROTOCOL#several-nodes).
	RXNodes int
	Sync    string // a scheduled demo's SYNC_MODE (ParseSync), "" for none
}

type stepError struct {
	Step int
	Name string
	Err  error
}

func (e *stepError) Error() string {
	return fmt.Sprintf("demo step %d (%s) failed: %v", e.Step, e.Name, e.Err)
}

func (e *stepError) Unwrap() error { return e.Err }

type runner struct {
	o   Options
	sb  *Sandbox
	out *sink

	mu       sync.Mutex
	children []*child

	rcv      *receiver
	badShown int       // how many refused deliveries the transcript has reported
	startAt  time.Time // a scheduled demo's START_AT, as task new wrote it

	// What the steps hand on to the later ones.
	captures []*child
	readies  []*result.Result
	record   string
	outcome  *outcome
	air      hacksim.OnAir
}

// Run sets the sandbox up, runs the narrated steps and removes the sandbox
// again (unless Keep). It returns nil only when the fake TX action wrote
// rf_tx 0 and the capture published COMPLETE.
func Run(ctx context.Context, o Options) (err error) {
	// Whatever the demo refuses, it refuses before anything is created.
	if !filepath.IsAbs(o.Exe) {
		return fmt.Errorf("demo: the rfhandoff binary path %q is not absolute", o.Exe)
	}
	if o.RXNodes != 0 {
		if err := CheckRXNodes(o.RXNodes); err != nil {
			return err
		}
	}
	if o.Sync != "" {
		if o.Sync, err = ParseSync(o.Sync); err != nil {
			return err
		}
	}
	if o.Auto {
		if err := autoAvailable(); err != nil {
			return err
		}
	} else {
		// Without a terminal nobody could approve: refuse at once.
		t, err := prompt.Open()
		if err != nil {
			return fmt.Errorf("the interactive demo needs you at a terminal: you type the approvals at the real prompts, "+
				"and there is no controlling terminal here (%w). "+
				"Run it from a terminal, or use `rfhandoff demo --auto` to watch it answer by itself inside its sandbox", err)
		}
		t.Close()
	}
	if o.Timing == (Timing{}) {
		o.Timing = interactiveTiming
		if o.Auto {
			o.Timing = autoTiming
		}
	}
	d := &runner{o: o, out: &sink{w: o.Out}}
	d.intro()

	if d.rcv, err = startReceiver(); err != nil {
		return &stepError{Step: 0, Name: "sandbox", Err: err}
	}
	defer d.rcv.close()
	sb, err := NewSandbox(ctx, o, d.rcv.URL, d.rcv.Secret)
	if err != nil {
		return &stepError{Step: 0, Name: "sandbox", Err: err}
	}
	d.sb = sb
	defer func() {
		d.stopAll()
		if o.Keep {
			d.out.printf("\nSandbox kept: %s\n", sb.Root)
			return
		}
		if rerr := sb.remove(); rerr != nil {
			d.out.printf("\nCould not remove the sandbox %s: %v\n", sb.Root, rerr)
			return
		}
		d.out.printf("\nSandbox removed: %s (use --keep to keep it)\n", sb.Root)
	}()
	d.describeSandbox()
	if o.Sync != "" {
		d.describeSync()
	}
	return d.steps(ctx)
}

// stopAll interrupts every child still running and waits for it: the
// capture publishes an honest COMPLETE when interrupted.
func (d *runner) stopAll() {
	d.mu.Lock()
	cs := append([]*child(nil), d.children...)
	d.mu.Unlock()
	for _, c := range cs {
		if !c.done() {
			d.out.printf("(stopping %s)\n", c.name)
			c.stop(stopGrace)
		}
	}
}

func (d *runner) step(n int, title string) {
	d.out.printf("\n── Step %d: %s ──\n", n, title)
}

func (d *runner) say(format string, args ...any) {
	d.out.printf(format+"\n", args...)
}

// until polls cond until it returns true or an error, ctx ends or the
// deadline passes.
func until(ctx context.Context, deadline time.Time, what string, cond func() (bool, error)) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("gave up waiting for %s at %s", what, deadline.Format("15:04:05"))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
