package exec

import "time"

// A process start the system refuses for a moment (transientStartError,
// per platform) is tried this many times in all, pausing startPause, then
// twice that, between attempts (PROTOCOL#subprocesses).
const startAttempts = 3

var startPause = 100 * time.Millisecond
