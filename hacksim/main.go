package hacksim

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tools are the program names the simulator answers to.
var tools = []string{"hackrf_info", "hackrf_clock", "hackrf_transfer"}

// IsTool reports whether a program name (a path is fine) is one of Tools.
func IsTool(name string) bool { return slices.Contains(tools, toolName(name)) }

// toolName is the program name argv[0] carries: what follows the last
// separator of either kind (Windows passes C:\tools\hackrf_info.exe, and
// the same string must mean the same on every system), without a ".exe"
// suffix in any case (hackrf_info.EXE is the same file on Windows).
func toolName(argv0 string) string {
	name := argv0[strings.LastIndexAny(argv0, `/\`)+1:]
	if n := len(name) - len(".exe"); n > 0 && strings.EqualFold(name[n:], ".exe") {
		name = name[:n]
	}
	return name
}

// Main runs the simulated tool named by name (argv[0]; a path is fine) with
// args (argv[1:]) and returns its exit code. env reads the environment
// (HACKRF_SIM); nil means an empty one.
func Main(name string, args []string, env func(string) string, stdout, stderr io.Writer) int {
	if env == nil {
		env = func(string) string { return "" }
	}
	// Every run says first what it is (doc.go, "What it says it is"), where
	// the real tool prints its results, so that whoever reads those reads
	// it too: stderr for hackrf_transfer, whose stdout may be the samples.
	tool := toolName(name)
	if tool == "hackrf_info" || tool == "hackrf_clock" {
		io.WriteString(stdout, marker+"\n")
	} else {
		io.WriteString(stderr, marker+"\n")
	}
	m, err := parseEnv(env)
	if err != nil {
		fmt.Fprintf(stderr, "hacksim: %v\n", err)
		return 2
	}
	switch tool {
	case "hackrf_info":
		return runInfo(m, stdout)
	case "hackrf_clock":
		return runClock(name, args, m, stdout, stderr)
	case "hackrf_transfer":
		// The real tool catches SIGINT and SIGTERM to end cleanly.
		sigs := make(chan os.Signal, 4)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
		defer signal.Stop(sigs)
		return runTransfer(name, args, m, stdout, stderr, sigs)
	}
	fmt.Fprintf(stderr, "hacksim: %q is not a simulated tool (want one of %s)\n", name, strings.Join(tools, ", "))
	return 2
}

// parseEnv reads every HACKRF_SIM* variable, naming every problem.
func parseEnv(env func(string) string) (modes, error) {
	var errs []string
	m, modesErr := parseModes(env("HACKRF_SIM"))
	onair, onairErr := parseOnAirEnv(env(OnAirEnv))
	seed, seedErr := parseSeed(env(SeedEnv))
	m.onair, m.seed = onair, seed
	for _, err := range []error{modesErr, onairErr, seedErr} {
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	errs = append(errs, m.parseTiming(env)...)
	if len(errs) > 0 {
		return m, errors.New(strings.Join(errs, "; "))
	}
	return m, nil
}

// marker is the line every run prints first: hackrfcli.SimulatorMarker,
// which the parsers look for (this package's tests hold the two to the
// same text; importing hackrfcli here would make its tests' use of the
// simulator a cycle).
const marker = "hacksim: SIMULATED HackRF: rfhandoff's simulator, no radio (the samples are synthetic)"

// modes is the parsed HACKRF_SIM (and HACKRF_SIM_ONAIR).
type modes struct {
	nodevice, noclock, stall, exit1, fast, burst, oldfw, fw2023, slowarm, slowstop bool
	onair                                                                          *onAirListener
	seed                                                                           *uint64 // HACKRF_SIM_SEED; nil: one per run
	timing
}

// SeedEnv names the noise's seed (doc.go): unset, each run draws its own,
// so two captures (two runs, two nodes) never share a SHA-256.
const SeedEnv = "HACKRF_SIM_SEED"

func parseSeed(v string) (*uint64, error) {
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s=%q: want a decimal number from 0 to %d", SeedEnv, v, uint64(math.MaxUint64))
	}
	return &n, nil
}

// runSeed is the seed of a capture into path.
func (m modes) runSeed(path string) uint64 {
	if m.seed != nil {
		return *m.seed
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %s", time.Now().UnixNano(), os.Getpid(), path)
	return h.Sum64()
}

// modeNames are the values HACKRF_SIM accepts.
var modeNames = []string{"nodevice", "noclock", "stall", "exit1", "fast", "burst", "oldfw", "fw2023", "slowarm", "slowstop"}

func parseModes(s string) (modes, error) {
	var m modes
	flags := []*bool{&m.nodevice, &m.noclock, &m.stall, &m.exit1, &m.fast, &m.burst, &m.oldfw, &m.fw2023, &m.slowarm, &m.slowstop} // as modeNames
	var bad []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if i := slices.Index(modeNames, f); i >= 0 {
			*flags[i] = true
		} else if f != "" {
			bad = append(bad, fmt.Sprintf("%q", f))
		}
	}
	if len(bad) > 0 {
		return m, fmt.Errorf("HACKRF_SIM=%q: unknown mode %s (known: %s)", s, strings.Join(bad, ", "), strings.Join(modeNames, ", "))
	}
	if m.stall && m.exit1 {
		return m, fmt.Errorf("HACKRF_SIM=%q: stall and exit1 exclude each other", s)
	}
	return m, nil
}
