package main

import "log/slog"

// outliveTerminal does nothing on Windows: a write to a closed pipe only
// fails, and a closed console (SIGTERM to Go) may be killed before its
// COMPLETE is out; the next rx capture or rx watch publishes it (PROTOCOL#capture).
func outliveTerminal(*slog.Logger) func() { return func() {} }
