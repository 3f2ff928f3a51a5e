package nodes

// nodesPlanned and nodesLimits time the three-node scenario under Wine,
// where each git.exe start is slow: with 40 s the three READYs reached MAIN
// 13 s before the window closed and 38 s after publication, and MAIN rightly
// refused the record ("the nodes' capture time left is not enough").
const (
	nodesPlanned = 120
	nodesLimits  = "max_publication_age_s = 300\n"
)
