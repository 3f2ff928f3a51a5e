package gitcli

import "regexp"

// fetchArgs is the narrow fetch of branches (no '+').
func fetchArgs(remote string, branches []string, filter string) []string {
	args := []string{"fetch", "--no-tags", "--no-auto-gc", "--no-recurse-submodules", "--no-write-fetch-head"}
	if filter != "" {
		args = append(args, "--filter="+filter)
	}
	args = append(args, "--end-of-options", remote)
	for _, branch := range branches {
		args = append(args, "refs/heads/"+branch+":refs/remotes/"+remote+"/"+branch)
	}
	return args
}

type fetchOutcome struct {
	Rejected   bool   // a ref update was refused (" ! [rejected] ...")
	Reason     string // the parenthesised reason, e.g. "non-fast-forward"
	To         string // the rejected update's destination ("origin/rx-node")
	MissingRef bool   // "fatal: couldn't find remote ref ..."
}

var (
	// " ! [rejected]        rx-node    -> origin/rx-node  (non-fast-forward)"
	fetchRejectedRE = regexp.MustCompile(`^ ! \[rejected\]\s+\S+\s+->\s+(\S+)\s+\(([^()]+)\)\s*$`)
	fetchMissingRE  = regexp.MustCompile(`^fatal: couldn't find remote ref \S+`)
)

// parseFetchStderr reads git fetch's stderr (LC_ALL=C) for the first
// refused ref update or a missing remote ref.
func parseFetchStderr(stderr []byte) fetchOutcome {
	var out fetchOutcome
	for _, line := range outputLines(stderr) {
		if m := fetchRejectedRE.FindStringSubmatch(line); m != nil && !out.Rejected {
			out.Rejected, out.To, out.Reason = true, m[1], m[2]
		}
		if fetchMissingRE.MatchString(line) {
			out.MissingRef = true
		}
	}
	return out
}
