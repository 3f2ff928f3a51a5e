package hacksim

import (
	"fmt"
	"strings"
)

// longOpt is one getopt_long table entry.
type longOpt struct {
	short  byte
	hasArg bool
}

// getopt walks argv the way glibc's getopt/getopt_long does for the tools:
// clustered flags, attached or separate option arguments, operands skipped
// (GNU permutation), "--" ends the options. A problem comes back as '?'
// with glibc's message, which the tools print before their usage.
type getopt struct {
	prog      string
	args      []string
	optstring string
	long      map[string]longOpt
	i, j      int // current argument, and position inside a flag cluster
}

func (g *getopt) next() (c byte, arg, msg string, ok bool) {
	for g.j == 0 {
		if g.i >= len(g.args) {
			return 0, "", "", false
		}
		a := g.args[g.i]
		switch {
		case a == "--":
			g.i = len(g.args)
			return 0, "", "", false
		case strings.HasPrefix(a, "--") && g.long != nil:
			g.i++
			return g.nextLong(a)
		case len(a) < 2 || a[0] != '-':
			g.i++ // an operand: the tools ignore them
		default:
			g.j = 1
		}
	}
	a := g.args[g.i]
	c = a[g.j]
	g.j++
	idx := strings.IndexByte(g.optstring, c)
	known := c != ':' && idx >= 0
	if !known || !strings.HasPrefix(g.optstring[idx+1:], ":") {
		if g.j >= len(a) { // the end of the cluster
			g.i, g.j = g.i+1, 0
		}
		if !known {
			return '?', "", fmt.Sprintf("%s: invalid option -- '%c'", g.prog, c), true
		}
		return c, "", "", true
	}
	// The argument: the rest of the cluster, else the next argument.
	arg, g.i, g.j = a[g.j:], g.i+1, 0
	if arg == "" && g.i < len(g.args) {
		arg, g.i = g.args[g.i], g.i+1
	} else if arg == "" {
		return '?', "", fmt.Sprintf("%s: option requires an argument -- '%c'", g.prog, c), true
	}
	return c, arg, "", true
}

func (g *getopt) nextLong(a string) (byte, string, string, bool) {
	name, val, hasVal := strings.Cut(a[2:], "=")
	lo, known := g.long[name]
	switch {
	case !known:
		return '?', "", fmt.Sprintf("%s: unrecognized option '%s'", g.prog, a), true
	case !lo.hasArg && hasVal:
		return '?', "", fmt.Sprintf("%s: option '--%s' doesn't allow an argument", g.prog, name), true
	case !lo.hasArg || hasVal:
		return lo.short, val, "", true
	case g.i < len(g.args):
		g.i++
		return lo.short, g.args[g.i-1], "", true
	}
	return '?', "", fmt.Sprintf("%s: option '--%s' requires an argument", g.prog, name), true
}
