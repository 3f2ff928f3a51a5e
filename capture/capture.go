package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"rfhandoff/captureplan"
	"rfhandoff/config"
	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/hackrfcli"
	"rfhandoff/ident"
	"rfhandoff/localfile"
	"rfhandoff/node"
	"rfhandoff/notify"
	"rfhandoff/quicklook"
	"rfhandoff/result"
	"rfhandoff/state"
)

// Deps is what a capture works with.
type Deps struct {
	Git    *gitcli.Client // the RX checkout: HEAD read, never changed (the task is read through the RX mirror)
	Runner exec.Runner    // the RoleCapture runner: hackrf tools (receive only) and git; recovery by rx watch gets a RoleGit one
	Policy config.Policy
	Audit  *exec.AuditLog // its head goes into every result commit
	Logger *slog.Logger   // nil: discard
	// Progress (nil: none) is one line rewritten in place with Terminal,
	// else a line per ProgressEvery.
	Progress io.Writer
	Terminal bool
	Author   string             // SigMF core:author ("" leaves it out)
	Notify   *notify.Dispatcher // PROTOCOL#notifications; nil sends nothing
	// Recovered is told what Run's recovery published, before the new
	// capture starts.
	Recovered func(*Recovered)
}

// Options tune the executor; zero values take the defaults.
type Options struct {
	TaskID         string        // when set, must be the current task's ID
	StartupTimeout time.Duration // bounds the wait for a started tool's file to grow
	// ConfirmGap separates the two size readings that prove the file grows
	// (PROTOCOL#capture): a gap too short to see growth only reads again.
	ConfirmGap time.Duration
	// StallAfter is how long the file may stop growing while the tool
	// lives before the capture is stopped as stalled.
	StallAfter       time.Duration
	Grace            time.Duration // from SIGINT to killing the tool
	Tick             time.Duration // how often the capture is looked at
	ProgressEvery    time.Duration // the interval of the plain progress lines
	PublishTimeout   time.Duration // bounds one publish (a signal does not cancel it)
	ToolTimeout      time.Duration // bounds hackrf_info and hackrf_clock
	CompleteAttempts int           // tries of a COMPLETE whose publish failed other than by a refused check

	// fail, in tests, makes the capture fail at a step (session.fault).
	fail func(step string) error
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.StartupTimeout, 15*time.Second)
	def(&o.ConfirmGap, 100*time.Millisecond)
	def(&o.StallAfter, 5*time.Second)
	def(&o.Grace, 10*time.Second)
	def(&o.Tick, 250*time.Millisecond)
	def(&o.ProgressEvery, 10*time.Second)
	def(&o.PublishTimeout, 5*time.Minute)
	def(&o.ToolTimeout, 30*time.Second)
	if o.CompleteAttempts <= 0 {
		o.CompleteAttempts = 3
	}
	return o
}

// Report is what a capture did, returned also with the error of a capture
// that failed after it started, so the caller can say what was published.
type Report struct {
	TaskID string
	// Recording is <TASK_ID>, or <TASK_ID>-<node> for a task with
	// RX_NODES (PROTOCOL#several-nodes).
	Recording  string
	Dir        string // <capture.dir>/<TASK_ID>
	DataPath   string // the ci8 samples (.sigmf-data)
	MetaPath   string // SigMF metadata, "" when not written
	MetaSHA512 string // the metadata's SHA-512 as written, for a node's COMPLETE; "" when not written
	PNGPath    string // quick-look picture, "" when not written
	ResultPath string // local copy of the last result written

	Ready, Complete             *result.Result
	ReadyCommit, CompleteCommit string // "" when not published

	ProcessStarted time.Time
	FirstSample    time.Time // the estimate (firstsample.go): SigMF core:datetime, the quick-look's start
	ReadyPublished time.Time // when the READY push returned
	ProcessEnded   time.Time // when the tool's exit was collected
	// SHA256Done and AnalysisDone are when the streaming SHA-256 and the
	// analyzer had consumed the last byte; Drained when their reader
	// stopped. Only these come between ProcessEnded and the COMPLETE publish.
	SHA256Done, AnalysisDone, Drained time.Time
	SHA512Done                        time.Time // when the background SHA-512 was had
	CompletePublished                 time.Time // when the COMPLETE push returned
	Detection                         *quicklook.Detection
	Outcome                           string // one line on how the capture ended
}

// Run is `rx capture` (doc.go). A returned Report is nil only when the
// capture never got as far as a file. It ends by telling d.Notify
// capture_complete or capture_failed (PROTOCOL#notifications).
func Run(ctx context.Context, d Deps, o Options) (rep *Report, err error) {
	about := notify.Task{ID: o.TaskID}
	defer func() { notifyEnd(d.Notify, about, rep, err) }()
	d, o, stateDir, l, err := begin(ctx, d, o)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	p := d.Policy
	// A killed capture's temp file from a state write goes before anything
	// reads the state (the store's lock proves no writer owns it).
	if removed, err := (&state.RXStore{Dir: stateDir}).CleanTemps(); err != nil {
		return nil, err
	} else if len(removed) > 0 {
		d.Logger.Warn("removed temp files left by a killed writer", "files", removed)
	}
	// A killed capture gets its COMPLETE before anything new starts; one
	// that cannot stops this run.
	if rec, err := recoverLocked(ctx, d, o, stateDir); err != nil {
		return nil, err
	} else if rec != nil && d.Recovered != nil {
		d.Recovered(rec)
	}

	cur, m, plan, err := approved(ctx, d, stateDir, o.TaskID)
	if err != nil {
		return nil, err
	}
	id := cur.Task.ID
	about = notify.FromTask(cur.Task)
	// A task naming its receivers runs only on a listed node (PROTOCOL#several-nodes).
	nodeName, err := cur.Task.Node(p.Node.Name)
	if err != nil {
		return nil, fmt.Errorf("%w: nothing started", err)
	}
	recording := id
	if nodeName != "" {
		recording = node.Recording(id, nodeName)
	}
	if err := resultBranchExists(ctx, m, p.Repo.Remote, p.Repo.ResultBranch, id); err != nil {
		return nil, err
	}
	if p.Limits.PlannedDurationS <= 0 {
		return nil, fmt.Errorf("policy limits.planned_duration_s = %d: must be positive", p.Limits.PlannedDurationS)
	}
	// The file must fit before any hardware opens: a capture that fills
	// the disk fails late and takes the checkout's file system with it.
	free, err := localfile.FreeBytes(plan.Dir)
	if err != nil {
		return nil, fmt.Errorf("reading the free space where captures go (capture.dir %s): %w; nothing started", plan.Dir, err)
	}
	if err := plan.CheckSpace(free); err != nil {
		return nil, refuse(id, err.Error())
	}
	// The simulator never passes for hardware (doc.go).
	simulated := simulatorPaths(d.Runner)
	if err := checkSimulator(d, id, simulated); err != nil {
		return nil, err
	}
	hc := &hackrfcli.Client{R: d.Runner, Timeout: o.ToolTimeout, Serial: p.Capture.Serial}
	info, board, err := inventory(ctx, hc, p.Capture.Serial)
	if seen := simulatorInfo(info); seen != "" && simulated == "" {
		if err := checkSimulator(d, id, seen); err != nil {
			return nil, err
		}
		simulated = seen
	}
	if err != nil {
		return nil, err
	}
	// The chosen board for every later call, even if another is plugged in meanwhile.
	if ident.Serial.MatchString(board.Serial) {
		hc.Serial = board.Serial
	}
	d.Logger.Info("HackRF found", "board", board.BoardName, "serial", board.Serial, "firmware", board.FirmwareVersion)
	if sy := plan.Sync; sy != nil && sy.Mode == captureplan.SyncPPS {
		if why := board.IgnoresTrigger(); why != "" {
			return nil, refuse(id, fmt.Sprintf(
				"SYNC_MODE PPS needs a board that waits for the trigger, and the HackRF %s does not: %s, or schedule the capture by the host clock (task new NEW_TASK_ID ... --sync HOST_CLOCK); nothing was started",
				board.Serial, why))
		}
	}
	if err := checkClock(ctx, hc, board); err != nil {
		return nil, err
	}
	clkin := "CLKIN status: clock signal detected"
	if simulated != "" {
		clkin += " (as the simulator reports it: no clock was measured)"
	}
	d.Logger.Info(clkin)

	dir, err := captureDir(ctx, d.Git, p.Repo.Path, p.CaptureDir(), id)
	if err != nil {
		return nil, err
	}
	s := &session{
		d: d, o: o, hc: hc, cur: cur, plan: plan, info: info, board: board, stateDir: stateDir, node: nodeName,
		simulated: simulated != "",
		rep: &Report{
			TaskID: id, Dir: dir, Recording: recording,
			DataPath:   filepath.Join(dir, recording+DataSuffix),
			ResultPath: filepath.Join(dir, ResultName),
		},
	}
	return s.run(ctx)
}

// begin is what Run and Recover start with: defaults, the state
// directory checked, the capture lock taken.
func begin(ctx context.Context, d Deps, o Options) (Deps, Options, string, *localfile.Lock, error) {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Git == nil || d.Runner == nil || d.Audit == nil {
		return d, o, "", nil, errors.New("capture: Deps needs Git, Runner and Audit")
	}
	// The state directory (0700) git must ignore, as every RX command checks.
	stateDir := d.Policy.StatePath()
	if err := d.Git.MakePrivateDir(ctx, d.Policy.Repo.Path, stateDir, "state directory"); err != nil {
		return d, o, "", nil, err
	}
	l, err := lock(stateDir)
	return d, o.withDefaults(), stateDir, l, err
}

// now is the time written into results: UTC, milliseconds.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
