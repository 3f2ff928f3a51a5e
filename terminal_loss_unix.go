//go:build unix

package main

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// outliveTerminal keeps rx capture running to its COMPLETE when its
// terminal goes (PROTOCOL#capture): SIGHUP is only logged, and asking for
// SIGPIPE makes a write to a closed stdout or stderr fail with EPIPE
// instead of killing the process. The returned func restores the defaults.
func outliveTerminal(log *slog.Logger) func() {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		defer close(done)
		seen := map[os.Signal]bool{}
		for sig := range ch {
			if !seen[sig] {
				seen[sig] = true
				log.Warn("the terminal or an output is gone: the capture goes on to its planned end and publishes COMPLETE", "signal", sig.String())
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(ch)
		<-done
	}
}
