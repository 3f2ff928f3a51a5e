package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"rfhandoff/exec"
	"rfhandoff/hacksim"
	"rfhandoff/ident"
)

// CLI is the command tree. Only commands that work are listed.
type CLI struct {
	Globals

	Audit struct {
		Show   AuditShowCmd   `cmd:"" help:"Print the audit log readably."`
		Verify AuditVerifyCmd `cmd:"" help:"Check the audit log's hash chain."`
	} `cmd:"" help:"Show and verify the audit log."`
	Config struct {
		Check ConfigCheckCmd `cmd:"" help:"Load and validate the policy and print the effective values."`
	} `cmd:"" help:"Check the policy file."`
	Doctor struct {
		Rx   DoctorRxCmd   `cmd:"" name:"rx" help:"RX laptop: check the checkout, state directory, policy, remote and branches, trust files, tools, board, CLKIN, host clock and free space; every problem at once. Writes nothing. Exit 0 all good, 1 a problem."`
		Main DoctorMainCmd `cmd:"" name:"main" help:"MAIN PC: check the checkout, state directory, policy, remote and branches, trust files, tools and host clock; every problem at once. Writes nothing. Exit 0 all good, 1 a problem."`
	} `cmd:"" help:"Check one side of the lab from here (checkout, state directory, remote, branches, tools, board, clock, space); every problem at once, nothing written."`
	Task struct {
		New      TaskNewCmd      `cmd:"" help:"MAIN PC: write the next task file under the RX side's rules (fresh EXPECTED_HEAD, unused TASK_ID, derived level). Never commits or pushes. Exit 0 written, 1 refused."`
		Validate TaskValidateCmd `cmd:"" help:"Check a NEXT_RX_TASK.md header offline; print the derived and effective level."`
	} `cmd:"" help:"Write (MAIN PC) and check task files."`
	Result struct {
		Validate ResultValidateCmd `cmd:"" help:"Check an RX_RESULT.json offline against the strict schema."`
	} `cmd:"" help:"Offline result file checks."`
	Rx struct {
		Check         RxCheckCmd         `cmd:"" help:"One-shot (cron): fetch and validate the current task, record it as seen. Exit 0 nothing new to approve, 10 a task awaits approval, 1 error."`
		Watch         RxWatchCmd         `cmd:"" help:"Poll the task branch; prompt for each new valid task; prepare approved ones. [S], Ctrl-C or SIGTERM stop it."`
		Approve       RxApproveCmd       `cmd:"" help:"The approval prompt once, for the current task (needs a terminal)."`
		Capture       RxCaptureCmd       `cmd:"" help:"Run the approved current task's bounded capture: READY while it runs, COMPLETE when it ends. Exit 0 COMPLETE published for a full capture, 130 interrupted, 1 otherwise."`
		MarkCompleted RxMarkCompletedCmd `cmd:"" name:"mark-completed" help:"Record a TASK_ID as completed: it is never offered again."`
		Status        RxStatusCmd        `cmd:"" help:"Show the RX state and whether a watcher runs."`
		PublishResult RxPublishResultCmd `cmd:"" name:"publish-result" help:"Publish RX_RESULT.json (and the rendered RX_RESULT.md) to the result branch after the seven checks. Exit 0 published or already identical, 1 refused or failed."`
	} `cmd:"" help:"RX laptop: watch the task branch, approve and prepare tasks."`
	Capture struct {
		Plot CapturePlotCmd `cmd:"" help:"Spectrogram and spectrum PNG of a ci8 capture, with the energy detector's verdict."`
	} `cmd:"" help:"Quick-look plots of ci8 capture files."`
	Tx struct {
		Watch   TxWatchCmd   `cmd:"" help:"Poll the result branch; for a READY result that passes every check ask for AUTHORIZE RF TX and write one authorization record. Never transmits."`
		Execute TxExecuteCmd `cmd:"" help:"Consume one authorization record: re-check, the phrase, then the [tx] action (fake by default). Exit 0 ran, 1 refused or failed."`
		Status  TxStatusCmd  `cmd:"" help:"Show the TX state and the authorization records."`
	} `cmd:"" name:"tx" help:"MAIN PC: watch results, authorize and execute RF TX."`
	Demo    DemoCmd    `cmd:"" help:"The whole protocol in a throw-away sandbox (simulator, fake TX); you type the approvals unless --auto."`
	Version VersionCmd `cmd:"" help:"Print the version and the resolved tool paths."`
}

// Main runs rfhandoff with args and returns the exit status. Under a
// HackRF tool's name it is the HackRF simulator (PROTOCOL#simulator).
func Main(args []string, stdout, stderr io.Writer) int {
	if hacksim.IsTool(args[0]) {
		return hacksim.Main(args[0], args[1:], os.Getenv, stdout, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	args, code := helpArgs(args, stdout)
	if code >= 0 {
		return code
	}
	var cli CLI
	exit := -1
	parser, err := kong.New(&cli,
		kong.Name("rfhandoff"),
		kong.Description("Coordinate an OTA RF experiment between an RX laptop and a MAIN PC over git."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exit = code }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Vars{"task_id_pattern": ident.TaskID.String()},
	)
	if err != nil {
		fmt.Fprintln(stderr, "rfhandoff:", err)
		return 2
	}
	kctx, err := parser.Parse(args[1:])
	if exit >= 0 {
		if len(args) == 2 && args[1] == "--help" && exit == 0 && code == -2 {
			return 2 // rfhandoff alone: the short help, as a usage error
		}
		return exit
	}
	if err != nil {
		parser.Errorf("%s", err)
		return 2
	}
	app, err := newApp(ctx, &cli.Globals, stdout, stderr)
	if side, ok := strings.CutPrefix(kctx.Command(), "doctor "); ok && err != nil {
		return doctorWithoutPolicy(stdout, side, err)
	}
	if err != nil {
		fmt.Fprintln(stderr, "rfhandoff:", err)
		return 1
	}
	err = kctx.Run(app)
	// Queued events (a cron rx check's approval_needed) go out before exit.
	app.closeNotifier()
	if err == nil {
		return 0
	}
	// -v: the failed subprocess's argv and stderr a short message omits.
	if d := exec.Detail(err); d != "" {
		app.Logger.Debug("failed subprocess", "detail", d)
	}
	code = 1
	if ee, ok := errors.AsType[*exitStatusError](err); ok {
		code, err = ee.Code, ee.Err
	}
	if err != nil {
		fmt.Fprintln(stderr, "rfhandoff:", err)
	}
	return code
}
