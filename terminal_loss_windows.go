package main

import "log/slog"

// outliveTerminal does nothing on Windows: there a write to a closed pipe
// only fails, and a closed console is CTRL_CLOSE_EVENT (SIGTERM to Go),
// an interrupted capture that Windows may kill before its COMPLETE is out;
// the next rx capture or a running rx watch then publishes it (PROTOCOL#capture).
func outliveTerminal(*slog.Logger) func() { return func() {} }
