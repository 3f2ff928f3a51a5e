package config

import (
	"math"
	"strings"
	"testing"
	"time"

	"rfhandoff/errlist"
)

// TestValidateRules changes one thing in Default() per case and checks that
// exactly the named key is reported, or nothing when ok.
func TestValidateRules(t *testing.T) {
	tests := []struct {
		name string
		mut  func(*Policy)
		bad  string // key expected in the problems; "" means valid
	}{
		// repo
		{"repo.path empty", func(p *Policy) { p.Repo.Path = "" }, "repo.path"},
		{"repo.path option-like", func(p *Policy) { p.Repo.Path = "-C" }, "repo.path"},
		{"repo.path control char", func(p *Policy) { p.Repo.Path = "rx\x1b[2J" }, "repo.path"},
		{"repo.path absolute", func(p *Policy) { p.Repo.Path = abs("/srv/rx") }, ""},
		{"repo.path sibling", func(p *Policy) { p.Repo.Path = "../rx" }, ""},
		{"repo.remote with slash", func(p *Policy) { p.Repo.Remote = "a/b" }, "repo.remote"},
		{"repo.remote upstream", func(p *Policy) { p.Repo.Remote = "upstream" }, ""},
		{"repo.url https", func(p *Policy) { p.Repo.URL = "https://git.example.org/lab/rf.git" }, ""},
		{"repo.url scp-like", func(p *Policy) { p.Repo.URL = "git@git.example.org:lab/rf.git" }, ""},
		{"repo.url path", func(p *Policy) { p.Repo.URL = "../rf.git" }, ""},
		{"repo.url user without password", func(p *Policy) { p.Repo.URL = "ssh://git@git.example.org/lab/rf.git" }, ""},
		{"repo.url password", func(p *Policy) { p.Repo.URL = "https://rx:s3cret@git.example.org/rf.git" }, "repo.url"},
		{"repo.url ext", func(p *Policy) { p.Repo.URL = "ext::sh -c touch% /tmp/x" }, "repo.url"},
		{"repo.url option", func(p *Policy) { p.Repo.URL = "-oProxyCommand=x" }, "repo.url"},
		{"repo.url ssh option host", func(p *Policy) { p.Repo.URL = "ssh://-oProxyCommand=x/rf.git" }, "repo.url"},
		{"repo.url scheme", func(p *Policy) { p.Repo.URL = "ftp://h/rf.git" }, "repo.url"},
		{"repo.url space", func(p *Policy) { p.Repo.URL = "/srv/r f.git" }, "repo.url"},
		{"branches equal", func(p *Policy) { p.Repo.ResultBranch = p.Repo.TaskBranch }, "repo.result_branch"},
		{"task_file absolute", func(p *Policy) { p.Repo.TaskFile = "/etc/passwd" }, "repo.task_file"},
		{"task_file escapes", func(p *Policy) { p.Repo.TaskFile = "../x.md" }, "repo.task_file"},
		{"task_file dotdot inside", func(p *Policy) { p.Repo.TaskFile = "docs/../x.md" }, "repo.task_file"},
		{"task_file option", func(p *Policy) { p.Repo.TaskFile = "-x.md" }, "repo.task_file"},
		{"task_file option component", func(p *Policy) { p.Repo.TaskFile = "docs/--x.md" }, "repo.task_file"},
		{"task_file pathspec magic", func(p *Policy) { p.Repo.TaskFile = ":(glob)*.md" }, "repo.task_file"},
		{"task_file glob", func(p *Policy) { p.Repo.TaskFile = "docs/*.md" }, "repo.task_file"},
		{"task_file into .git", func(p *Policy) { p.Repo.TaskFile = ".git/config" }, "repo.task_file"},
		{"task_file unclean", func(p *Policy) { p.Repo.TaskFile = "docs//x.md" }, "repo.task_file"},
		{"task_file newline", func(p *Policy) { p.Repo.TaskFile = "docs/x\n.md" }, "repo.task_file"},
		{"task_file dotfile", func(p *Policy) { p.Repo.TaskFile = ".handoff/TASK.md" }, ""},
		{"result_dir root", func(p *Policy) { p.Repo.ResultDir = "." }, "repo.result_dir"},
		{"result_dir trailing slash", func(p *Policy) { p.Repo.ResultDir = "docs/" }, "repo.result_dir"},
		{"result_dir empty", func(p *Policy) { p.Repo.ResultDir = "" }, "repo.result_dir"},
		{"state_dir escapes", func(p *Policy) { p.Repo.StateDir = "../state" }, "repo.state_dir"},
		{"state_dir option", func(p *Policy) { p.Repo.StateDir = "-state" }, "repo.state_dir"},
		{"state_dir absolute", func(p *Policy) { p.Repo.StateDir = abs("/var/lib/rfhandoff") }, ""},
		{"state_dir bidi override", func(p *Policy) { p.Repo.StateDir = ".local\u202e" }, "repo.state_dir"},
		// poll
		{"rx_interval zero", func(p *Policy) { p.Poll.RXInterval.Duration = 0 }, "poll.rx_interval"},
		{"tx_interval negative", func(p *Policy) { p.Poll.TXInterval.Duration = -time.Second }, "poll.tx_interval"},
		{"git_timeout huge", func(p *Policy) { p.Poll.GitTimeout.Duration = 25 * time.Hour }, "poll.git_timeout"},
		{"max_backoff below interval", func(p *Policy) { p.Poll.MaxBackoff.Duration = 2 * time.Second }, "poll.max_backoff"},
		{"max_backoff equal interval", func(p *Policy) { p.Poll.MaxBackoff.Duration = 10 * time.Second }, ""},
		{"fast polling", func(p *Policy) { p.Poll.RXInterval.Duration = 250 * time.Millisecond }, ""},
		// limits
		{"max_task_bytes zero", func(p *Policy) { p.Limits.MaxTaskBytes = 0 }, "limits.max_task_bytes"},
		{"max_task_bytes tightened", func(p *Policy) { p.Limits.MaxTaskBytes = 4096 }, ""},
		{"max_result_bytes over", func(p *Policy) { p.Limits.MaxResultBytes = protocolMaxResultBytes + 1 }, "limits.max_result_bytes"},
		{"max_result_bytes negative", func(p *Policy) { p.Limits.MaxResultBytes = -1 }, "limits.max_result_bytes"},
		{"planned 14", func(p *Policy) { p.Limits.PlannedDurationS = 14 }, "limits.planned_duration_s"},
		{"planned 15", func(p *Policy) { p.Limits.PlannedDurationS = 15 }, ""},
		{"planned 3600", func(p *Policy) { p.Limits.PlannedDurationS = 3600 }, ""},
		{"min_remaining 9", func(p *Policy) { p.Limits.MinRemainingS = 9 }, "limits.min_remaining_s"},
		{"min_remaining negative", func(p *Policy) { p.Limits.MinRemainingS = -10 }, "limits.min_remaining_s"},
		{"min_remaining tightened", func(p *Policy) { p.Limits.MinRemainingS = 30 }, ""},
		{"min_remaining over max", func(p *Policy) { p.Limits.MinRemainingS = 4000; p.Limits.PlannedDurationS = 3600 }, "limits.min_remaining_s"},
		{"publication age 0 (the planned duration)", func(p *Policy) { p.Limits.MaxPublicationAgeS = 0 }, ""},
		{"publication age negative", func(p *Policy) { p.Limits.MaxPublicationAgeS = -1 }, "limits.max_publication_age_s"},
		{"publication age 3601", func(p *Policy) { p.Limits.MaxPublicationAgeS = 3601 }, "limits.max_publication_age_s"},
		{"publication age 30", func(p *Policy) { p.Limits.MaxPublicationAgeS = 30 }, ""},
		{"clock skew 0", func(p *Policy) { p.Limits.MaxClockSkewS = 0 }, ""},
		{"clock skew 61", func(p *Policy) { p.Limits.MaxClockSkewS = 61 }, "limits.max_clock_skew_s"},
		{"clock skew negative", func(p *Policy) { p.Limits.MaxClockSkewS = -1 }, "limits.max_clock_skew_s"},
		{"publish attempts 0", func(p *Policy) { p.Limits.PublishAttempts = 0 }, "limits.publish_attempts"},
		{"publish attempts 11", func(p *Policy) { p.Limits.PublishAttempts = 11 }, "limits.publish_attempts"},
		// audit and tools
		{"audit path empty", func(p *Policy) { p.Audit.Path = "" }, "audit.path"},
		{"audit path escapes", func(p *Policy) { p.Audit.Path = "../audit.jsonl" }, "audit.path"},
		{"tool relative", func(p *Policy) { p.Tools.Git = "bin/git" }, "tools.git"},
		{"tool bare name", func(p *Policy) { p.Tools.HackRFInfo = "hackrf_info" }, "tools.hackrf_info"},
		{"tool unclean", func(p *Policy) { p.Tools.HackRFClock = "/usr/bin/../bin/hackrf_clock" }, "tools.hackrf_clock"},
		{"tool absolute", func(p *Policy) { p.Tools.HackRFTransfer = abs("/usr/bin/hackrf_transfer") }, ""},
		{"ssh command", func(p *Policy) { p.Tools.SSHCommand = "ssh -F /etc/lab/ssh_config" }, ""},
		{"ssh command two lines", func(p *Policy) { p.Tools.SSHCommand = "ssh\ntouch /tmp/x" }, "tools.ssh_command"},
		{"ssh command padded", func(p *Policy) { p.Tools.SSHCommand = " ssh" }, "tools.ssh_command"},
		{"credential helper", func(p *Policy) { p.Tools.GitCredentialHelper = "store" }, ""},
		{"credential helper control", func(p *Policy) { p.Tools.GitCredentialHelper = "store\x1b" }, "tools.git_credential_helper"},
		// capture
		{"capture freq low", func(p *Policy) { p.Capture.FrequencyHz = 999_999 }, "capture.frequency_hz"},
		{"capture freq high", func(p *Policy) { p.Capture.FrequencyHz = 6_000_000_001 }, "capture.frequency_hz"},
		{"capture freq 6 GHz", func(p *Policy) { p.Capture.FrequencyHz = 6_000_000_000 }, ""},
		{"capture rate low", func(p *Policy) { p.Capture.SampleRateHz = 1_999_999 }, "capture.sample_rate_hz"},
		{"capture rate high", func(p *Policy) { p.Capture.SampleRateHz = 20_000_001 }, "capture.sample_rate_hz"},
		{"lna not step 8", func(p *Policy) { p.Capture.LNAGainDB = 12 }, "capture.lna_gain_db"},
		{"lna 48", func(p *Policy) { p.Capture.LNAGainDB = 48 }, "capture.lna_gain_db"},
		{"lna 40", func(p *Policy) { p.Capture.LNAGainDB = 40 }, ""},
		{"vga odd", func(p *Policy) { p.Capture.VGAGainDB = 21 }, "capture.vga_gain_db"},
		{"vga 64", func(p *Policy) { p.Capture.VGAGainDB = 64 }, "capture.vga_gain_db"},
		{"vga negative", func(p *Policy) { p.Capture.VGAGainDB = -2 }, "capture.vga_gain_db"},
		{"serial upper", func(p *Policy) { p.Capture.Serial = "A06063C8" }, "capture.serial"},
		{"serial long", func(p *Policy) { p.Capture.Serial = strings.Repeat("a", 33) }, "capture.serial"},
		{"serial option", func(p *Policy) { p.Capture.Serial = "-d" }, "capture.serial"},
		{"serial ok", func(p *Policy) { p.Capture.Serial = "0000000000000000a06063c8234e925f" }, ""},
		{"capture dir escapes", func(p *Policy) { p.Capture.Dir = "../caps" }, "capture.dir"},
		{"threshold zero", func(p *Policy) { p.Capture.DetectThresholdDB = 0 }, "capture.detect_threshold_db"},
		{"threshold under the noise margin", func(p *Policy) { p.Capture.DetectThresholdDB = 3 }, "capture.detect_threshold_db"},
		{"threshold NaN", func(p *Policy) { p.Capture.DetectThresholdDB = math.NaN() }, "capture.detect_threshold_db"},
		{"threshold inf", func(p *Policy) { p.Capture.DetectThresholdDB = math.Inf(1) }, "capture.detect_threshold_db"},
		{"detect_min zero", func(p *Policy) { p.Capture.DetectMinS = 0 }, "capture.detect_min_s"},
		{"detect_min NaN", func(p *Policy) { p.Capture.DetectMinS = math.NaN() }, "capture.detect_min_s"},
		{"detect_min over planned", func(p *Policy) { p.Capture.DetectMinS = 121 }, "capture.detect_min_s"},
		// tx
		{"tx action shell", func(p *Policy) { p.TX.Action = "sh" }, "tx.action"},
		{"tx action empty", func(p *Policy) { p.TX.Action = "" }, "tx.action"},
		{"tx hackrf enabled without iq", func(p *Policy) { p.TX.Action = TXActionHackRFTransfer; p.TX.Enabled = true }, "tx.iq_file"},
		{"tx hackrf disabled without iq", func(p *Policy) { p.TX.Action = TXActionHackRFTransfer }, ""},
		{"tx hackrf enabled with iq", func(p *Policy) {
			p.TX.Action = TXActionHackRFTransfer
			p.TX.Enabled = true
			p.TX.IQFile = abs("/srv/iq/burst.ci8")
		}, ""},
		{"tx fake enabled", func(p *Policy) { p.TX.Enabled = true }, ""},
		{"tx iq escapes", func(p *Policy) { p.TX.IQFile = "../burst.ci8" }, "tx.iq_file"},
		{"tx freq low", func(p *Policy) { p.TX.FrequencyHz = 0 }, "tx.frequency_hz"},
		{"tx rate high", func(p *Policy) { p.TX.SampleRateHz = 40_000_000 }, "tx.sample_rate_hz"},
		{"tx gain above its max", func(p *Policy) { p.TX.TXVGAGainDB = 10 }, "tx.tx_vga_gain_db"},
		{"tx gain within its max", func(p *Policy) { p.TX.TXVGAGainDB = 10; p.TX.MaxTXVGAGainDB = 10 }, ""},
		{"tx max gain 48", func(p *Policy) { p.TX.MaxTXVGAGainDB = 48 }, "tx.max_tx_vga_gain_db"},
		{"tx gain negative", func(p *Policy) { p.TX.TXVGAGainDB = -1 }, "tx.tx_vga_gain_db"},
		{"tx duration 0", func(p *Policy) { p.TX.DurationS = 0 }, "tx.duration_s"},
		{"tx duration 3601", func(p *Policy) { p.TX.DurationS = 3601; p.Limits.PlannedDurationS = 3600 }, "tx.duration_s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Default()
			tt.mut(&p)
			err := p.Validate()
			keys := fieldKeysOf(flatten(err))
			if tt.bad == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if len(keys) != 1 || keys[0] != tt.bad {
				t.Fatalf("problems %q, want exactly %s (error: %v)", keys, tt.bad, err)
			}
		})
	}
}

// TestValidateMAIN: keys only the MAIN side uses must fit in the planned
// duration; Validate (which every command applies) accepts such a policy,
// ValidateMAIN names exactly the key at fault.
func TestValidateMAIN(t *testing.T) {
	tests := []struct {
		name string
		mut  func(*Policy)
		bad  string // "" means it fits
	}{
		{"defaults", func(p *Policy) {}, ""},
		{"min_remaining not below planned", func(p *Policy) { p.Limits.MinRemainingS = 120 }, "limits.min_remaining_s"},
		{"min_remaining and duration both too long", func(p *Policy) { p.Limits.MinRemainingS = 130; p.TX.DurationS = 20 }, "limits.min_remaining_s"},
		{"tx duration cannot fit", func(p *Policy) { p.TX.DurationS = 111 }, "tx.duration_s"},
		{"tx duration just fits", func(p *Policy) { p.TX.DurationS = 110 }, ""},
		{"planned 15 with the default tx", func(p *Policy) { p.Limits.PlannedDurationS = 15 }, "tx.duration_s"},
		{"planned 15 with a 5 s tx", func(p *Policy) { p.Limits.PlannedDurationS = 15; p.TX.DurationS = 5 }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Default()
			tt.mut(&p)
			if err := p.Validate(); err != nil {
				t.Fatalf("Validate rejected a policy only the MAIN side cannot use: %v", err)
			}
			err := p.ValidateMAIN()
			keys := fieldKeysOf(flatten(err))
			if tt.bad == "" {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if len(keys) != 1 || keys[0] != tt.bad {
				t.Fatalf("problems %q, want exactly %s (error: %v)", keys, tt.bad, err)
			}
		})
	}
}

func TestFieldErrorShowsKeyAndValue(t *testing.T) {
	p := Default()
	p.Repo.TaskBranch = "a\x1b[31mb"
	p.Poll.RXInterval.Duration = -time.Second
	err := p.Validate()
	msg := err.Error()
	for _, want := range []string{`repo.task_branch = "a\x1b[31mb"`, `poll.rx_interval = "-1s"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %s", msg, want)
		}
	}
	if strings.ContainsRune(msg, 0x1b) {
		t.Errorf("message carries a raw escape character: %q", msg)
	}
}

// flatten is errlist.Flatten, and nil for nil (a policy Validate accepts).
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	return errlist.Flatten(err)
}
