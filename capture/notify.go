package capture

import "rfhandoff/notify"

// notifyEnd sends capture_failed for Run's error, else capture_complete
// once COMPLETE was published (PROTOCOL#notifications).
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

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
