package exec

import (
	"fmt"
	"slices"
	"strings"
)

// roleTools is what each role may start (PROTOCOL#subprocesses); its
// arguments are judged by checkArgs.
var roleTools = map[Role][]Tool{
	RoleGit:      {Git, Timedatectl, W32tm},
	RoleProbe:    {Git, Timedatectl, W32tm, Chronyc, HackRFInfo, HackRFClock},
	RoleCapture:  {Git, Timedatectl, W32tm, Chronyc, HackRFInfo, HackRFClock, HackRFTransfer},
	RoleTransmit: {Git, Timedatectl, W32tm, HackRFTransfer},
	RoleNotify:   {Notify},
}

// transferRules: a receive or a transmit, never both.
var transferRules = map[Role]struct {
	flags    map[string]transferFlag
	required []string
}{
	RoleCapture:  {rxTransferFlags, []string{"-r", "-n"}},
	RoleTransmit: {txTransferFlags, []string{"-t", "-n"}},
}

// May reports whether a runner of role r may start t at all.
func (r Role) May(t Tool) bool { return slices.Contains(roleTools[r], t) }

func allowlisted(t Tool) bool {
	for r := range roleTools {
		if r.May(t) {
			return true
		}
	}
	return false
}

var gitSubcommands = map[string]bool{
	"fetch": true, "rev-parse": true, "cat-file": true, "merge-base": true,
	"ls-remote": true, "ls-tree": true, "check-ignore": true, "symbolic-ref": true,
	"clone": true, "add": true, "diff": true, "commit": true, "push": true,
	"remote": true, "version": true, "status": true, "log": true, "show": true,
	"init": true, "config": true, "rev-list": true, "repack": true, "update-ref": true, "read-tree": true, "hash-object": true,
	"write-tree": true, "commit-tree": true, "for-each-ref": true,
	"unpack-objects": true, "diff-tree": true, "fsck": true, "ls-files": true,
}

// transferFlag: whether an option takes a value.
type transferFlag struct{ value bool }

// rxTransferFlags can express a bounded receive and nothing else: no -t, -c
// (CW), -F (force out-of-range) or -R (repeat). -H waits for the PPS trigger.
var rxTransferFlags = map[string]transferFlag{
	"-r": {true}, "-f": {true}, "-s": {true}, "-l": {true}, "-g": {true},
	"-a": {true}, "-n": {true}, "-d": {true}, "-b": {true}, "-B": {false}, "-H": {false},
}

// txTransferFlags can express a bounded transmit from a file and nothing else.
var txTransferFlags = map[string]transferFlag{
	"-t": {true}, "-f": {true}, "-s": {true}, "-x": {true}, "-a": {true},
	"-n": {true}, "-d": {true}, "-b": {true},
}

// checkArgs returns why a command is refused, or "" when it is allowed.
func checkArgs(role Role, tool Tool, args []string) string {
	if slices.ContainsFunc(args, func(a string) bool { return strings.ContainsRune(a, 0) }) {
		return "argument contains a NUL byte"
	}
	if !allowlisted(tool) {
		return fmt.Sprintf("%q is not an allowlisted tool", tool)
	}
	if !role.May(tool) {
		return fmt.Sprintf("%s is not allowed for this command", tool)
	}
	switch tool {
	case Git:
		return checkGit(args)
	case HackRFInfo:
		return checkFlags(args, map[string]transferFlag{"-d": {true}}, nil)
	case HackRFClock:
		return checkFlags(args, map[string]transferFlag{"-i": {false}, "-d": {true}}, []string{"-i"})
	case Timedatectl, W32tm, Chronyc:
		return checkClockTool(tool, args)
	case Notify:
		return "" // the operator's own argv; ResolveNotify checked the program
	case HackRFTransfer:
		rule := transferRules[role]
		return checkFlags(args, rule.flags, rule.required)
	}
	return fmt.Sprintf("%q is not an allowlisted tool", tool)
}

func checkGit(args []string) string {
	// Callers never pass their own -c options: the runner adds the only ones.
	if len(args) == 0 {
		return "git without a subcommand"
	}
	if !gitSubcommands[args[0]] {
		return fmt.Sprintf("git subcommand %q is not allowlisted", args[0])
	}
	for _, a := range args {
		if a == "--end-of-options" || a == "--" {
			break
		}
		for _, bad := range []string{"--upload-pack", "--receive-pack", "--exec", "--config", "-c", "--output", "--force", "-f", "--mirror", "--delete", "--template"} {
			if a == bad || strings.HasPrefix(a, bad+"=") {
				return fmt.Sprintf("git option %q is not allowed", a)
			}
		}
		if strings.HasPrefix(a, "+") {
			return fmt.Sprintf("forced refspec %q is not allowed", a)
		}
	}
	return ""
}

// checkFlags accepts only the flags in allowed, each once with its value,
// and requires those in required.
func checkFlags(args []string, allowed map[string]transferFlag, required []string) string {
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		f, ok := allowed[a]
		if !ok {
			return fmt.Sprintf("argument %q is not allowed", a)
		}
		if seen[a] {
			return fmt.Sprintf("flag %s given twice", a)
		}
		seen[a] = true
		if f.value {
			if i+1 >= len(args) {
				return fmt.Sprintf("flag %s needs a value", a)
			}
			v := args[i+1]
			if strings.HasPrefix(v, "-") {
				return fmt.Sprintf("value %q of %s looks like an option", v, a)
			}
			i++
		}
	}
	for _, r := range required {
		if !seen[r] {
			return fmt.Sprintf("flag %s is required", r)
		}
	}
	return ""
}
