package config

// SimulatorKey lets the HackRF simulator's captures pass, named in refusals.
const SimulatorKey = "[tools] allow_simulator"

// DescribeSimulator is config check's comment on [tools] allow_simulator.
func (t Tools) DescribeSimulator() string {
	if t.AllowSimulator {
		return "\n# [tools] allow_simulator = true: simulation is intended. rx capture accepts rfhandoff's HackRF\n" +
			"# simulator (its results, SigMF file, quick-look and rx status say \"simulated\"), and tx watch and\n" +
			"# tx execute accept a simulated READY. Never on a lab's real run.\n"
	}
	return "\n# [tools] allow_simulator = false: rx capture refuses rfhandoff's HackRF simulator, and tx watch\n" +
		"# and tx execute refuse a simulated READY.\n"
}
