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
	code, size := -1, int64(0)
	if c.CaptureExitCode != nil {
		code = int(*c.CaptureExitCode)
	}
	if c.CaptureSizeBytes != nil {
		size = *c.CaptureSizeBytes
	}
	var overruns *int
	if c.Overruns != nil {
		overruns = new(int(*c.Overruns))
	}
	n.Notify(notify.CaptureComplete(t, code, size, overruns))
}
