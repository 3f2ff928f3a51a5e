package config

import (
	"fmt"

	"rfhandoff/node"
)

// Node is the RX policy's [node]: this node's name on a multi-node task
// (PROTOCOL#several-nodes), empty on a single-node RX laptop.
type Node struct {
	Name string `toml:"name"`
}

// MainNode is one [[nodes]] table of the MAIN policy (PROTOCOL#several-nodes,
// PROTOCOL#trust).
type MainNode struct {
	Name          string `toml:"name"`
	ResultBranch  string `toml:"result_branch"`
	ResultSigners string `toml:"result_signers,omitempty"`
}

func (p Policy) NodeResultSignersPath(n MainNode) string { return p.Resolve(n.ResultSigners) }

func nodeKey(i int, key string) string { return fmt.Sprintf("nodes[%d].%s", i, key) }

func (p Policy) validateNodes(ps *problems) {
	if n := p.Node.Name; n != "" && node.Check(n) != "" {
		ps.add("node.name", n, "must match %s", node.Pattern())
	}
	if len(p.Nodes) > node.Max {
		ps.add("nodes", len(p.Nodes), "lists %d nodes, more than %d (a task names at most %d)", len(p.Nodes), node.Max, node.Max)
	}
	names, branches := map[string]int{}, map[string]int{}
	for i, n := range p.Nodes {
		firstName, dupName := names[n.Name]
		firstBranch, dupBranch := branches[n.ResultBranch]
		switch {
		case n.Name == "":
			ps.add(nodeKey(i, "name"), n.Name, "is required")
		case node.Check(n.Name) != "":
			ps.add(nodeKey(i, "name"), n.Name, "must match %s", node.Pattern())
		case dupName:
			ps.add(nodeKey(i, "name"), n.Name, "repeats %s", nodeKey(firstName, "name"))
		default:
			names[n.Name] = i
		}
		switch {
		case n.ResultBranch == "":
			ps.add(nodeKey(i, "result_branch"), n.ResultBranch, "is required")
		case checkBranch(n.ResultBranch) != nil:
			ps.check(nodeKey(i, "result_branch"), n.ResultBranch, checkBranch(n.ResultBranch))
		case n.ResultBranch == p.Repo.TaskBranch:
			ps.add(nodeKey(i, "result_branch"), n.ResultBranch, "must differ from repo.task_branch (results are never pushed to the task branch)")
		case dupBranch:
			ps.add(nodeKey(i, "result_branch"), n.ResultBranch, "repeats %s: each node publishes on its own branch", nodeKey(firstBranch, "result_branch"))
		default:
			branches[n.ResultBranch] = i
		}
	}
}
