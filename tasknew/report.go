package tasknew

import (
	"fmt"
	"io"
	"strings"

	"rfhandoff/config"
	"rfhandoff/gate"
	"rfhandoff/hiddentext"
	"rfhandoff/task"
)

// Print says what was written, what the RX operator will have to type, and the git lines
// that hand the task over (rfhandoff runs none of them).
func (w *Written) Print(out io.Writer, remote, taskBranch string) {
	t := w.Task
	fmt.Fprintf(out, "wrote %s: task %s\n", config.Shown(w.Path), t.ID)
	if w.Replaced != "" && w.Replaced != t.ID {
		fmt.Fprintf(out, "  replaced:      task %s\n", w.Replaced)
	}
	fmt.Fprintf(out, "  title:         %s\n", hiddentext.Sanitize(t.Title))
	derived := t.DerivedLevel.String()
	if r := gate.Reasons(t.Flags()); len(r) > 0 {
		derived += " (" + strings.Join(r, ", ") + ")"
	}
	fmt.Fprintf(out, "  derived level: %s\n", derived)
	fmt.Fprintf(out, "  risk level:    %s\n", t.EffectiveLevel)
	fmt.Fprintf(out, "  approval:      %s\n", approvalText(t))
	if t.Nodes.Len() > 0 {
		fmt.Fprintf(out, "  rx nodes:      %s (each approves, captures and publishes on its own branch; PROTOCOL#several-nodes)\n", t.Nodes)
	}
	if t.ExpectedHead == w.Tip {
		fmt.Fprintf(out, "  expected_head: %s (the tip of %s/%s)\n", t.ExpectedHead, remote, taskBranch)
	} else {
		fmt.Fprintf(out, "  expected_head: %s (an ancestor of the tip %s of %s/%s)\n", t.ExpectedHead, w.Tip, remote, taskBranch)
	}
	fmt.Fprintf(out, "  sha256:        %s\n", t.SHA256)
	if t.RFTX {
		fmt.Fprintf(out, "  rf_tx:         %s\n", RFTXMeaning)
	}
	for _, n := range w.Notes {
		fmt.Fprintf(out, "  note:          %s\n", n)
	}
	fmt.Fprintln(out, "Nothing was committed or pushed. To hand the task to the RX laptop:")
	if !w.IsTaskFile {
		fmt.Fprintf(out, "  (copy it to %s in the MAIN checkout first)\n", w.TaskFile)
	}
	if w.Head != "" && w.Head != w.Tip {
		fmt.Fprintf(out, "  (HEAD is %s, not the task branch tip %s: commit on top of %s/%s, or the push is refused or carries other commits)\n",
			w.Head, w.Tip, remote, taskBranch)
	}
	fmt.Fprintf(out, "  git add -- %s\n", w.TaskFile)
	fmt.Fprintf(out, "  git commit -m \"Task %s\"\n", t.ID)
	fmt.Fprintf(out, "  git push %s HEAD:refs/heads/%s\n", remote, taskBranch)
}

// RFTXMeaning is what RF_TX = YES means, said where a task sets it: the
// receiver transmits, not the MAIN PC.
const RFTXMeaning = "YES means the RX node itself transmits: the task is RED, its operator must type AUTHORIZE RF TX, " +
	"and rx capture refuses it (the RX side never runs a task that transmits). An over-the-air capture while the MAIN PC " +
	"transmits does not set it: that is --rf-rx (with --allow-push RX_RESULT_ONLY to publish READY and COMPLETE)."

// approvalText says what the RX operator must type, in the words of the prompt they will see.
func approvalText(t *task.Task) string {
	phrase, needed := t.ApprovalPhrase()
	if !needed {
		return fmt.Sprintf("the RX operator answers %s at the prompt", gate.ApproveAnswer)
	}
	return fmt.Sprintf("the RX operator answers %s, then must type %s exactly", gate.ApproveAnswer, phrase)
}
