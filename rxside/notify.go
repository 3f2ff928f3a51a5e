package rxside

import (
	"rfhandoff/notify"
	"rfhandoff/state"
	"rfhandoff/taskfetch"
)

// NotifyApprovalNeeded sends approval_needed for a task awaiting [A] once per task digest:
// the digest is recorded in the RX state before the event is queued, so a cron rx check run
// every minute sends it once (PROTOCOL#notifications). Without receivers it writes nothing.
func (s *Session) NotifyApprovalNeeded(cur *taskfetch.Current) {
	if s.Notify == nil {
		return
	}
	t := cur.Task
	if st, err := s.Store.Load(); err == nil && st.NotifiedTaskSHA256 == t.SHA256 {
		return
	}
	first := false
	if _, err := s.Store.Update(func(st *state.RX) error {
		first = st.NotifiedTaskSHA256 != t.SHA256
		st.NotifiedTaskSHA256 = t.SHA256
		return nil
	}); err != nil {
		s.log().Warn("approval_needed not sent: cannot record it in the RX state", "task_id", t.ID, "err", err)
		return
	}
	if first {
		s.Notify.Notify(notify.ApprovalNeeded(notify.FromTask(t)))
	}
}
