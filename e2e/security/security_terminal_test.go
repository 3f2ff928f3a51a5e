package security

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/cli/safeexec"

	"rfhandoff/gate"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/internal/tasktest"
	"rfhandoff/prompt"
	"rfhandoff/state"
)

// Escape sequences a hostile task or result could carry: set the window
// title, clear the screen, colour, a hyperlink, a right-to-left override,
// an 8-bit CSI, a bell.
var hostileSequences = []string{"\x1b]0;PWNED\x07", "\x1b[2J", "\x1b[31m", "\x1b]8;;http://evil.invalid\x07", "\u202e", "\xc2\x9b", "\x07"}

const hostileText = "look \x1b]0;PWNED\x07 here \x1b[2J\x1b[31mRED\x1b[0m \x1b]8;;http://evil.invalid\x07link\x1b]8;;\x07 \u202eevil \xc2\x9b1m bell\x07"

// rawSequences names the hostile sequences found raw in out.
func rawSequences(out string) []string {
	var found []string
	for _, s := range hostileSequences {
		if strings.Contains(out, s) {
			found = append(found, strings.ToValidUTF8(s, "?"))
		}
	}
	return found
}

// Invariant: terminal escape sequences in a task's title or body, or in a
// result, are never echoed raw: not by rx check, not in rx watch's logs,
// not at the approval prompt on a real terminal, not by tx watch. (The
// offline `task validate` is covered by TestTaskValidateEscapeNotEchoed.)
func TestSecurityEscapeSequencesNeverEchoed(t *testing.T) {
	t.Parallel()
	t.Run("title", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.TaskSpec{ID: "SEC_ESC_0001", Level: gate.Yellow, Title: hostileText})
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		if out.Code != 1 || !strings.Contains(out.Stderr, "TASK_TITLE") {
			t.Errorf("a title with control characters: want exit 1 naming TASK_TITLE\n%s", out)
		}
		if raw := rawSequences(out.All()); len(raw) != 0 {
			t.Errorf("rx check echoed %q raw", raw)
		}
		w := lab.RX.Start("rx", "watch")
		w.Stderr.WaitForText("task rejected", faultkit.Wait)
		w.Signal(syscall.SIGTERM)
		w.Wait(faultkit.Wait)
		if raw := rawSequences(w.Stderr.String() + w.Stdout.String()); len(raw) != 0 {
			t.Errorf("rx watch logged %q raw", raw)
		}
	})
	t.Run("body at the approval prompt", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.TaskSpec{ID: "SEC_ESC_0002", Level: gate.Yellow, Body: "## Goal\n\n" + hostileText + "\n"})
		out := lab.RX.Run(faultkit.Wait, "rx", "check")
		if out.Code != 10 {
			t.Errorf("a body with escapes is free Markdown: want exit 10\n%s", out)
		}
		if raw := rawSequences(out.All()); len(raw) != 0 {
			t.Errorf("rx check echoed %q raw", raw)
		}
		s := lab.RX.StartTTY("rx", "approve", "SEC_ESC_0002")
		s.WaitForText(`<U+001B>]0;PWNED<U+0007>`, faultkit.Wait) // the body, shown neutralised
		s.WaitForText(prompt.OneShotMenu, faultkit.Wait)
		s.Send("D")
		s.Wait(faultkit.Wait)
		if raw := rawSequences(s.TTY.String()); len(raw) != 0 {
			t.Errorf("the approval prompt echoed %q raw", raw)
		}
	})
	t.Run("result on the result branch", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.Capture("SEC_ESC_0003"))
		raw := string(lab.Encode(lab.Ready("SEC_ESC_0003")))
		lab.PushResult([]byte(strings.Replace(raw, `"SEC_ESC_0003"`, jsonString(hostileText), 1)))
		w := lab.Main.Start("tx", "watch")
		w.Stdout.WaitForText("refused, not offered for authorization", faultkit.Wait)
		w.Signal(syscall.SIGTERM)
		w.Wait(faultkit.Wait)
		if raw := rawSequences(w.Stdout.String() + w.Stderr.String()); len(raw) != 0 {
			t.Errorf("tx watch echoed %q raw:\n%q", raw, w.Stdout.String())
		}
	})
}

// isApproved reports whether the RX state holds an approval of id.
func isApproved(t *testing.T, lab *faultkit.Lab, id string) bool {
	t.Helper()
	st, err := state.LoadRX(lab.RX.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	return st.LastApprovedTaskID == id || (st.Approval != nil && st.Approval.TaskID == id)
}

// Invariant: answers come only from a terminal the process has. Without
// one (a new session with a pipe for stdin: cron, a service, an agent's
// subprocess) nothing is approved and stdin is never read; with a terminal
// but stdin piped, the piped answer is ignored and the terminal decides.
// A pseudo-terminal made by a wrapper such as script(1) IS a terminal:
// whoever types into it approves. Piped into script, answers that arrive
// before the question are discarded as type-ahead.
func TestSecurityApprovalNeedsATerminal(t *testing.T) {
	t.Parallel()
	// `rx approve` without a terminal is TestRxApproveNoTerminal in
	// cmd_rx_approve_test.go; here the watcher.
	t.Run("no terminal, answer piped", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.Capture("SEC_TTY_0001"))
		w := prompttest.StartDetached(t, faultkit.Bin(t), []string{"rx", "watch"}, prompttest.Options{Dir: lab.RX.Dir, Env: lab.RX.Env(), Stdin: "A\n"})
		w.Stderr.WaitFor(faultkit.TaskAwaits("SEC_TTY_0001"), faultkit.Wait)
		w.Signal(syscall.SIGTERM)
		w.Wait(faultkit.Wait)
		if left := w.StdinLeft(); left != "A\n" {
			t.Errorf("rx watch read stdin: %q left", left)
		}
		if isApproved(t, lab, "SEC_TTY_0001") {
			t.Error("rx watch approved without a terminal")
		}
	})
	t.Run("terminal, answer piped", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.Capture("SEC_TTY_0002"))
		s := prompttest.Start(t, faultkit.Bin(t), []string{"rx", "approve"}, prompttest.Options{Dir: lab.RX.Dir, Env: lab.RX.Env(), PipeStdin: true, Stdin: "A\n"})
		s.WaitForText(prompt.OneShotMenu, faultkit.Wait)
		s.Send("D")
		if code := s.Wait(faultkit.Wait).ExitCode(); code != 1 {
			t.Errorf("rx approve deferred at the terminal: exit %d, want 1", code)
		}
		if left := s.StdinLeft(); left != "A\n" {
			t.Errorf("the piped answer was read: %q left", left)
		}
		if isApproved(t, lab, "SEC_TTY_0002") {
			t.Error("the piped A approved the task")
		}
	})
	script, err := safeexec.LookPath("script")
	if err != nil {
		t.Log("script(1) not installed: the wrapper cases are skipped")
		return
	}
	t.Run("script with answers piped", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.Capture("SEC_TTY_0003"))
		// The answers are in script's stdin from the start; its end comes
		// only once the question is on screen, so script's end of input
		// (^D on its terminal) reaches the question, whatever the load,
		// instead of being discarded with the answers typed before it.
		s := prompttest.StartDetached(t, script, []string{"-qec", faultkit.Bin(t) + " rx approve", os.DevNull},
			prompttest.Options{Dir: lab.RX.Dir, Env: lab.RX.Env(), Stdin: "A\nA\nA\n", HoldStdin: true})
		s.Stdout.WaitForText(prompt.OneShotMenu, faultkit.Wait)
		s.CloseStdin()
		code := s.Wait(faultkit.Wait).ExitCode()
		t.Logf("script with piped answers: exit %d\n%q", code, s.Stdout.String())
		if code == 0 || isApproved(t, lab, "SEC_TTY_0003") {
			t.Errorf("answers piped into script before the question approved the task (exit %d)", code)
		}
	})
	t.Run("script on the operator's terminal", func(t *testing.T) {
		t.Parallel()
		lab := faultkit.NewLab(t)
		lab.PushTask(tasktest.Capture("SEC_TTY_0004"))
		s := prompttest.Start(t, script, []string{"-qec", faultkit.Bin(t) + " rx approve", os.DevNull}, prompttest.Options{Dir: lab.RX.Dir, Env: lab.RX.Env()})
		s.WaitForText(prompt.OneShotMenu, faultkit.Wait)
		s.Send("A")
		if code := s.Wait(faultkit.Wait).ExitCode(); code != 0 || !isApproved(t, lab, "SEC_TTY_0004") {
			t.Errorf("approval typed through script's terminal: exit %d, approved %v; a wrapper's pty is a terminal", code, isApproved(t, lab, "SEC_TTY_0004"))
		}
	})
}
