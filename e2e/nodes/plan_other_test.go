//go:build !windows

package nodes

// nodesPlanned and nodesLimits time the three-node scenario: 75 s of
// capture leave MAIN time to see three READYs and take the phrase even when
// a loaded machine starts the three captures 15 s apart (40 s did not,
// beside a second test run: the window is the intersection).
const (
	nodesPlanned = 75
	nodesLimits  = ""
)
