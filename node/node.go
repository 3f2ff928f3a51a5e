package node

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Max is how many nodes one task may name.
const Max = 8

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// Pattern is the node-name pattern, for messages.
func Pattern() string { return nameRE.String() }

// Check returns why name is not a node name, or "".
func Check(name string) string {
	if nameRE.MatchString(name) {
		return ""
	}
	return fmt.Sprintf("%q is not a node name matching %s", name, nameRE)
}

// List is a valid RX_NODES list: 1–Max distinct names in the order
// written. The zero List is "no list", the single node of a task without
// RX_NODES. It is comparable, so a task holding one still is.
type List struct{ joined string } // the names joined by ","

// Names returns the names in order; nil for the zero List.
func (l List) Names() []string {
	if l.joined == "" {
		return nil
	}
	return strings.Split(l.joined, ",")
}

// Len is how many nodes the list names.
func (l List) Len() int { return len(l.Names()) }

// Contains reports whether name is listed.
func (l List) Contains(name string) bool { return slices.Contains(l.Names(), name) }

// String writes the list as an RX_NODES value ("rx-a, rx-b").
func (l List) String() string { return strings.Join(l.Names(), ", ") }

// ParseList reads an RX_NODES value: comma-separated names with optional
// blanks around each. It returns the list and every problem at once
// (an empty item, a bad or repeated name, too many); the list is the zero
// List when there is any problem.
func ParseList(v string) (List, []string) {
	names, problems := parseNames(v)
	return List{joined: strings.Join(names, ",")}, problems
}

func parseNames(v string) (names []string, problems []string) {
	items := strings.Split(v, ",")
	seen := make(map[string]int, len(items))
	for i, it := range items {
		n := strings.Trim(it, " \t")
		switch {
		case n == "":
			problems = append(problems, fmt.Sprintf("item %d is empty", i+1))
			continue
		case Check(n) != "":
			problems = append(problems, fmt.Sprintf("item %d: %s", i+1, Check(n)))
			continue
		}
		if first, dup := seen[n]; dup {
			problems = append(problems, fmt.Sprintf("item %d: %q repeats item %d", i+1, n, first))
			continue
		}
		seen[n] = i + 1
		names = append(names, n)
	}
	if len(items) > Max {
		problems = append(problems, fmt.Sprintf("names %d nodes, more than %d", len(items), Max))
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return names, nil
}

// Recording is the name of a node's SigMF recording for a task:
// <TASK_ID>-<node>.
func Recording(taskID, name string) string { return taskID + "-" + name }
