package e2e

import (
	"testing"

	"rfhandoff/internal/faultkit"
	"rfhandoff/internal/testbin"
)

// simulatorNames are the HackRF tools' names (testbin.SimulatorNames).
var simulatorNames = testbin.SimulatorNames

func TestMain(m *testing.M) { faultkit.Main(m) }
