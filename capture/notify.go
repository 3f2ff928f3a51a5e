package capture

import "rfhandoff/notify"

// notifyEnd sends capture_complete when COMPLETE was published for a
// capture that ended normally, capture_failed when Run returned an error
// (PROTOCOL#notifications); t is what the event may say about the task.
func notifyEnd(n *notify.Dispatcher, t notify.Task, rep *Report, err error) {
	if err != nil {
		n.Notify(notify.CaptureFailed(t, err.Error()))
		return
	}
	if rep == nil || rep.Complete == nil || rep.CompleteCommit == "" {
		return
	}
	c := rep.Complete
	var overruns *int
	if c.Overruns != nil {
		overruns = new(int(*c.Overruns))
	}
	n.Notify(notify.CaptureComplete(t, int(deref(c.CaptureExitCode, -1)), deref(c.CaptureSizeBytes, 0), overruns))
}

// deref is *p, or def when p is nil.
func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
