package node

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

const Max = 8 // nodes one task may name

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

func Pattern() string { return nameRE.String() }

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

func (l List) Names() []string {
	if l.joined == "" {
		return nil
	}
	return strings.Split(l.joined, ",")
}

func (l List) Len() int { return len(l.Names()) }

func (l List) Contains(name string) bool { return slices.Contains(l.Names(), name) }

// String writes the list as an RX_NODES value ("rx-a, rx-b").
func (l List) String() string { return strings.Join(l.Names(), ", ") }

// ParseList reads an RX_NODES value (comma-separated names with optional blanks around each)
// and every problem at once; the list is the zero List when there is any problem.
func ParseList(v string) (List, []string) {
	items := strings.Split(v, ",")
	seen := make(map[string]int, len(items))
	var names, problems []string
	for i, it := range items {
		n := strings.Trim(it, " \t")
		first, dup := seen[n]
		switch {
		case n == "":
			problems = append(problems, fmt.Sprintf("item %d is empty", i+1))
		case Check(n) != "":
			problems = append(problems, fmt.Sprintf("item %d: %s", i+1, Check(n)))
		case dup:
			problems = append(problems, fmt.Sprintf("item %d: %q repeats item %d", i+1, n, first))
		default:
			seen[n] = i + 1
			names = append(names, n)
		}
	}
	if len(items) > Max {
		problems = append(problems, fmt.Sprintf("names %d nodes, more than %d", len(items), Max))
	}
	if len(problems) > 0 {
		return List{}, problems
	}
	return List{joined: strings.Join(names, ",")}, nil
}

// Recording is the name of a node's SigMF recording for a task.
func Recording(taskID, name string) string { return taskID + "-" + name }
