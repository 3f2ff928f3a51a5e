package demo

import (
	"fmt"
	"path/filepath"
	"time"

	"rfhandoff/gitcli"
	"rfhandoff/node"
)

// rxNode is one RX node of the sandbox: its checkout, policy, result
// branch and key, and how its simulator hears the sandbox's transmission.
// The single-node demo has one, named "", which is today's RX laptop.
type rxNode struct {
	Name string // [node] name; "" on the single-node demo
	Side string // the transcript's prefix: "RX", or the node's name
	// Base names its checkout, policy, key and capture log: "rx" on the
	// single-node demo, else its name.
	Base   string
	Who    string // "RX laptop", or "RX node <name>"
	Dir    string // its checkout
	Policy string // its policy file
	Branch string // its result branch, created by the sandbox as a lab would
	Key    string // its private key file ("" without ssh-keygen)
	// Signers is the allowed-signers file MAIN checks this node's results
	// against (its [[nodes]] result_signers; the single node's is
	// trust.result_signers).
	Signers string
	// DelayMS and LevelDB are HACKRF_SIM_ONAIR's: how much later and how
	// much weaker than the first node this node's simulator hears the
	// fake transmission (see onAirNode).
	DelayMS int
	LevelDB float64
	// PPSOffset and DelayNS are a scheduled demo's (sync.go): how far the
	// node's host clock is ahead of true time, and how many nanoseconds
	// after its emission the node hears the transmission.
	PPSOffset time.Duration
	DelayNS   int64
}

// Per-node on-air offsets: node i (from 0) hears the transmission
// i·onAirStepMS later and i·onAirStepDB weaker than the first. They stand
// for a receiver further away with a clock of its own: far larger than
// propagation (microseconds) so that a spectrogram shows them, and no
// larger than the capture's slack (PROTOCOL#main-pc's min_remaining_s).
const (
	onAirStepMS = 250
	onAirStepDB = -6.0
)

// MaxRXNodes is the largest --rx-nodes (PROTOCOL#several-nodes: 1 to 8).
const MaxRXNodes = node.Max

// CheckRXNodes refuses an --rx-nodes outside 1..MaxRXNodes.
func CheckRXNodes(n int) error {
	if n < 1 || n > MaxRXNodes {
		return fmt.Errorf("--rx-nodes %d: the demo runs 1 to %d RX nodes (PROTOCOL#several-nodes)", n, MaxRXNodes)
	}
	return nil
}

// makeNodes lays out the nodes of a sandbox with n of them: rx-a, rx-b,
// ... (n = 1: the single node of today, in rx/ with rx.toml on rx-node).
func (sb *Sandbox) makeNodes(n int) {
	if n <= 1 {
		sb.nodes = []*rxNode{{Side: "RX", Base: "rx", Who: "RX laptop", Branch: resultBranch}}
	} else {
		for i := range n {
			name := "rx-" + string(rune('a'+i))
			level := 0.0 // not -0
			if i > 0 {
				level = float64(i) * onAirStepDB
			}
			sb.nodes = append(sb.nodes, &rxNode{Name: name, Side: name, Base: name, Who: "RX node " + name, Branch: name,
				DelayMS: i * onAirStepMS, LevelDB: level})
		}
	}
	for _, node := range sb.nodes {
		node.Dir, node.Policy = filepath.Join(sb.Root, node.Base), filepath.Join(sb.Root, node.Base+".toml")
	}
}

// multi reports whether the sandbox runs a task with RX_NODES.
func (sb *Sandbox) multi() bool { return len(sb.nodes) > 1 }

func (n *rxNode) recording() string {
	if n.Name == "" {
		return taskID
	}
	return node.Recording(taskID, n.Name)
}

func (n *rxNode) identity() gitcli.Identity {
	return gitcli.Identity{Name: n.Who + " (rfhandoff demo)", Email: n.Base + "@demo.rfhandoff.invalid"}
}
