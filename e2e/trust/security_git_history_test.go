package trust

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/gitcli"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/gittest"
	"rfhandoff/internal/tasktest"
)

// Finding 7 of issue 29: an agent that can write the checkout (and so
// the mirrors in its state directory) must not change what git reads
// through config rfhandoff did not write: no replace ref swaps the bytes
// of a file a signature vouches for.

// gitWithStdin runs git with args in dir through the lab's runner, stdin
// given, and returns its stdout.
func gitWithStdin(t *testing.T, lab *faultkit.Lab, dir string, stdin []byte, args ...string) string {
	t.Helper()
	res, err := lab.R.Run(t.Context(), exec.Cmd{Tool: exec.Git, Dir: dir, Args: args, Stdin: bytes.NewReader(stdin)})
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, res.Stderr)
	}
	return strings.TrimSpace(string(res.Stdout))
}

// plantReplacement makes the bare repository at mirror answer blob of with
// data instead, as `git replace` would: data is written as a blob and
// refs/replace/<of> names it. Git honours it only where replace refs are
// on (core.useReplaceRefs, which the caller sets in some config file).
func plantReplacement(t *testing.T, lab *faultkit.Lab, mirror, of string, data []byte) {
	t.Helper()
	blob := gitWithStdin(t, lab, mirror, data, "hash-object", "-w", "--stdin")
	gittest.Git(t, lab.R, mirror, "update-ref", "--end-of-options", "refs/replace/"+of, blob)
}

// setConfig sets key to value in the git config file file.
func setConfig(t *testing.T, lab *faultkit.Lab, file, key, value string) {
	t.Helper()
	gittest.Git(t, lab.R, lab.Tmp, "config", "--file", file, "--end-of-options", key, value)
}

// globalConfig is the lab's global git config (every rfhandoff child's
// and the fixtures' own: set it only after the fixtures pushed).
func globalConfig(lab *faultkit.Lab) string { return filepath.Join(lab.Home, ".gitconfig") }

// mainWatchOnce runs tx watch until its first poll has read the result
// branch (so the MAIN mirror exists), then stops it.
func mainWatchOnce(t *testing.T, lab *faultkit.Lab) {
	t.Helper()
	w := lab.Main.Start("tx", "watch")
	w.Stdout.WaitForText("no "+tasktest.ResultPath+" at result branch commit", faultkit.Wait)
	w.Signal(syscall.SIGTERM)
	if st := w.Wait(faultkit.Wait); st.ExitCode() != 0 {
		t.Fatalf("tx watch: exit %d\n%s", st.ExitCode(), w.Stderr.String())
	}
}

// offeredOrOver is what a MAIN watcher shows first for a result: the
// phrase prompt, or that the result is a CAPTURE_COMPLETE.
var offeredOrOver = regexp.MustCompile(`Type exactly: AUTHORIZE RF TX|capture complete: `)

// Finding 7, MAIN side: a replace ref in the MAIN mirror swapping the
// blob of a signed CAPTURE_COMPLETE for a READY's bytes, with replace
// refs turned on in the mirror's config or in the global config, never
// makes tx watch offer the READY: it reads the COMPLETE the RX key
// signed, and the task is over.
func TestSecurityReplaceRefsMainMirror(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"mirror config", "global config"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			l := roomyTrustLab(t)
			const id = "PIN_REPLACE_0001"
			l.PushTask(tasktest.Capture(id))
			mainWatchOnce(t, l.Lab)
			ready := l.Ready(id)
			complete := l.Encode(completeOf(ready))
			plantReplacement(t, l.Lab, l.Main.Mirror(), gitcli.BlobID(complete), l.Encode(ready))
			cfg := filepath.Join(l.Main.Mirror(), "config")
			if where == "global config" {
				cfg = globalConfig(l.Lab)
			}
			setConfig(t, l.Lab, cfg, "core.useReplaceRefs", "true")
			l.publish(t, completeOf(ready), l.rx.Private)

			w := l.Main.StartTTY("tx", "watch")
			seen := w.WaitFor(offeredOrOver, faultkit.Wait)[0]
			w.Signal(syscall.SIGTERM)
			w.Wait(faultkit.Wait)
			if seen != "capture complete: " {
				t.Fatalf("the signed COMPLETE's blob was read through the replace ref: the READY was offered\n%s", w.TTY.String())
			}
			if recs := l.records(t); len(recs) != 0 {
				t.Fatalf("authorization records written: %v", recs)
			}
		})
	}
}

// Finding 7, RX side: a replace ref in the RX mirror swapping the signed
// task's blob for text nobody signed never shows that text as "signed:
// main@lab": rx check shows the task main@lab signed, and only it.
func TestSecurityReplaceRefsRXMirror(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"mirror config", "global config"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			l := newTrustLab(t)
			if out := l.RX.Run(faultkit.Wait, "rx", "check"); out.Code != 0 {
				t.Fatalf("rx check before any task (creates the mirror):\n%s", out)
			}
			const id, forged = "PIN_SIGNED_0001", "PIN_FORGED_0001"
			signed := tasktest.TaskFile(l.taskSpec(id))
			plantReplacement(t, l.Lab, l.RX.Mirror(), gitcli.BlobID([]byte(signed)), []byte(tasktest.TaskFile(l.taskSpec(forged))))
			cfg := filepath.Join(l.RX.Mirror(), "config")
			if where == "global config" {
				cfg = globalConfig(l.Lab)
			}
			setConfig(t, l.Lab, cfg, "core.useReplaceRefs", "true")
			l.pushTask(t, id, l.main.Private)

			out := l.RX.Run(faultkit.Wait, "rx", "check")
			if strings.Contains(out.All(), forged) {
				t.Fatalf("text nobody signed was read through the replace ref and shown:\n%s", out)
			}
			if out.Code != 10 || !strings.Contains(out.Stdout, id) || !strings.Contains(out.Stdout, "signed:   main@lab") {
				t.Fatalf("rx check: want exit 10 offering the signed task %s\n%s", id, out)
			}
		})
	}
}
