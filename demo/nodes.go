package demo

import (
	"fmt"
	"path/filepath"
	"time"

	"rfhandoff/config"
	"rfhandoff/gitcli"
	"rfhandoff/node"
)

// rxNode is one RX node of the sandbox. The single-node demo has one,
// named "", which is today's RX laptop.
type rxNode struct {
	Name    string // [node] name; "" on the single-node demo
	Side    string // the transcript's prefix: "RX", or the node's name
	Base    string // names its checkout, policy, key and capture log: "rx", or its name
	Who     string // "RX laptop", or "RX node <name>"
	Dir     string // its checkout
	Policy  string
	pol     config.Policy // its policy as loadConfined read it back
	Branch  string        // its result branch
	Key     string        // its private key file ("" without ssh-keygen)
	Signers string        // the allowed-signers file MAIN checks its results against
	// How much later and weaker than the first node its simulator hears the
	// fake transmission (HACKRF_SIM_ONAIR).
	DelayMS int
	LevelDB float64
	// A scheduled demo's (sync.go): how far its host clock is ahead of true
	// time, and how long after its emission it hears the transmission.
	PPSOffset time.Duration
	DelayNS   int64
}

// Per-node on-air offsets: node i hears the transmission i·onAirStepMS
// later and i·onAirStepDB weaker than the first: far larger than
// propagation so that a spectrogram shows them, and no larger than the
// capture's slack (PROTOCOL#main-pc's min_remaining_s).
const (
	onAirStepMS = 250
	onAirStepDB = -6.0
)

// MaxRXNodes is the largest --rx-nodes (PROTOCOL#several-nodes).
const MaxRXNodes = node.Max

func CheckRXNodes(n int) error {
	if n < 1 || n > MaxRXNodes {
		return fmt.Errorf("--rx-nodes %d: the demo runs 1 to %d RX nodes (PROTOCOL#several-nodes)", n, MaxRXNodes)
	}
	return nil
}

// makeNodes lays out n nodes: rx-a, rx-b, ... (n = 1: today's single node,
// in rx/ with rx.toml on rx-node).
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
