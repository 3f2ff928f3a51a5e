package fault

import (
	"strings"
	"sync"
	"testing"

	"rfhandoff/exec"
	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/prompttest"
	"rfhandoff/txwatch"
)

// Invariant: at most one TX per authorization. Two `tx execute` of the
// same record, each given the phrase at the same moment, run the action at
// most once: one succeeds, the other is refused, one outcome is written,
// and the fake action opens no hardware (no hackrf_transfer in the log).
func TestFaultConcurrentTxExecute(t *testing.T) {
	t.Parallel()
	lab := faultkit.NewLab(t)
	record := faultkit.Authorize(t, lab, "FAULT_EXEC_0001")

	a := lab.Main.StartTTY("tx", "execute", record)
	b := lab.Main.StartTTY("tx", "execute", record)
	for _, s := range []*prompttest.Session{a, b} {
		s.WaitForText("Type exactly: AUTHORIZE RF TX", faultkit.Wait)
		s.WaitForText("> ", faultkit.Wait)
	}
	var wg sync.WaitGroup
	for _, s := range []*prompttest.Session{a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); s.Send("AUTHORIZE RF TX") }()
	}
	wg.Wait()
	codes := []int{a.Wait(faultkit.Wait).ExitCode(), b.Wait(faultkit.Wait).ExitCode()}
	ran := 0
	for i, c := range codes {
		switch c {
		case 0:
			ran++
		case 1:
		default:
			t.Errorf("tx execute %d: exit %d", i, c)
		}
	}
	if ran != 1 {
		t.Fatalf("%d of two concurrent tx execute ran the action, want exactly 1\nfirst:\n%s\nsecond:\n%s", ran, a.TTY.String(), b.TTY.String())
	}
	loser := b
	if codes[1] == 0 {
		loser = a
	}
	t.Logf("the refused tx execute:\n%s", loser.TTY.String())
	if !strings.Contains(loser.TTY.String(), "refused") {
		t.Errorf("the second tx execute does not say it was refused:\n%s", loser.TTY.String())
	}
	store, err := txwatch.StoreOf(lab.Main.Policy)
	if err != nil {
		t.Fatal(err)
	}
	name, err := store.Resolve(record)
	if err != nil {
		t.Fatal(err)
	}
	o := readFile(t, store.Path(txwatch.OutcomeName(name)))
	if !strings.Contains(o, `"rf_tx": 0`) {
		t.Errorf("outcome does not record RF TX = 0:\n%s", o)
	}
	if used, err := store.Used(name); err != nil || !used {
		t.Errorf("record not marked used: %v %v", used, err)
	}
	es := faultkit.AuditEntries(t, lab.Main.AuditPath())
	for _, e := range es {
		if e.Tool == exec.HackRFTransfer {
			t.Errorf("the fake action ran hackrf_transfer: %v", e.Argv)
		}
	}
	// A third attempt after the fact is refused before the phrase.
	again := lab.Main.Run(faultkit.Wait, "tx", "execute", record)
	if again.Code != 1 || strings.Contains(again.All(), "Type exactly") {
		t.Errorf("a used record run again: want exit 1 before any prompt\n%s", again)
	}
	faultkit.CheckAuditChain(t, lab.Main.AuditPath())
}
