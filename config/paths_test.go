package config

import (
	"path/filepath"
	"testing"
)

func TestPathHelpers(t *testing.T) {
	p := Default()
	p.Repo.Path = abs("/srv/rx")
	if got, want := p.StatePath("rx_agent_state.json"), abs("/srv/rx/.local/rx_agent_state.json"); got != want {
		t.Errorf("StatePath = %q, want %q", got, want)
	}
	if got, want := p.StatePath(), abs("/srv/rx/.local"); got != want {
		t.Errorf("StatePath() = %q, want %q", got, want)
	}
	if got, want := p.StatePath("rx_agent_outbox", "T_1", "TASK.md"), abs("/srv/rx/.local/rx_agent_outbox/T_1/TASK.md"); got != want {
		t.Errorf("StatePath(outbox) = %q, want %q", got, want)
	}
	if got, want := p.AuditPath(), abs("/srv/rx/.local/audit.jsonl"); got != want {
		t.Errorf("AuditPath = %q, want %q", got, want)
	}
	if got, want := p.CaptureDir(), abs("/srv/rx/.local/captures"); got != want {
		t.Errorf("CaptureDir = %q, want %q", got, want)
	}
	if got := p.IQFilePath(); got != "" {
		t.Errorf("IQFilePath with none set = %q, want empty", got)
	}

	// Absolute paths are kept; relative repo.path stays relative.
	p.Repo.StateDir = abs("/var/lib/rfhandoff")
	p.Audit.Path = abs("/var/log/rfhandoff/audit.jsonl")
	p.TX.IQFile = "iq/burst.ci8"
	p.Repo.Path = "."
	if got, want := p.StatePath("x"), abs("/var/lib/rfhandoff/x"); got != want {
		t.Errorf("StatePath abs = %q, want %q", got, want)
	}
	if got, want := p.AuditPath(), abs("/var/log/rfhandoff/audit.jsonl"); got != want {
		t.Errorf("AuditPath abs = %q, want %q", got, want)
	}
	if got, want := p.IQFilePath(), filepath.Join("iq", "burst.ci8"); got != want {
		t.Errorf("IQFilePath = %q, want %q", got, want)
	}
	if got, want := p.CaptureDir(), filepath.Join(".local", "captures"); got != want {
		t.Errorf("CaptureDir relative = %q, want %q", got, want)
	}
}
